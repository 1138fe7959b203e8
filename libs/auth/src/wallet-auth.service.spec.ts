import { Signature, Wallet } from 'ethers';
import { AppException, FixedClock } from '@app/common';
import { loadConfig } from '@app/config';
import { parseAuthHeader } from './wallet-signature';
import { WalletAuthService } from './wallet-auth.service';

const AGENT = '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

async function header(wallet: Wallet, ts = NOW, subject = AGENT): Promise<string> {
  const message = `agora-auth:${subject}:${ts}`;
  return `${message}:sig:${await wallet.signMessage(message)}`;
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return (err as AppException).code;
  }
  return undefined;
}

describe('WalletAuthService', () => {
  const owner = new Wallet(Wallet.createRandom().privateKey);
  const other = new Wallet(Wallet.createRandom().privateKey);
  const clock = new FixedClock(new Date(NOW));
  const service = new WalletAuthService(loadConfig({}), clock);

  it('accepts the registered wallet signing agora-auth:<agent>:<ts>', async () => {
    const step1 = service.parse({ wallet: owner.address, signature: await header(owner) });
    const ctx = service.verify(step1, owner.address);
    expect(ctx).toEqual({ agentId: AGENT, wallet: owner.address, timestampMs: NOW, messageKey: `${AGENT}:${NOW}`, expiresAt: new Date(NOW + 300_000) });
  });

  it('compares wallets case-insensitively', async () => {
    const step1 = service.parse({ wallet: owner.address.toLowerCase(), signature: await header(owner) });
    expect(service.verify(step1, owner.address).agentId).toBe(AGENT);
  });

  it('is UNAUTHORIZED when headers are missing or malformed', async () => {
    const sig = await header(owner);
    expect(codeOf(() => service.parse({}))).toBe('UNAUTHORIZED');
    expect(codeOf(() => service.parse({ signature: sig }))).toBe('UNAUTHORIZED');
    expect(codeOf(() => service.parse({ wallet: owner.address }))).toBe('UNAUTHORIZED');
    expect(codeOf(() => service.parse({ wallet: '0xnope', signature: sig }))).toBe('UNAUTHORIZED');
    expect(codeOf(() => service.parse({ wallet: owner.address, signature: sig.replace(AGENT, 'not-a-uuid') }))).toBe('UNAUTHORIZED');
  });

  it('enforces the window: 4:59 ok, 5:01 rejected, either side', async () => {
    for (const [offset, ok] of [
      [-299_000, true],
      [299_000, true],
      [-301_000, false],
      [301_000, false],
    ] as const) {
      const code = codeOf(() => undefined);
      expect(code).toBeUndefined();
      const sig = await header(owner, NOW + offset);
      expect({ offset, code: codeOf(() => service.parse({ wallet: owner.address, signature: sig })) }).toEqual({ offset, code: ok ? undefined : 'UNAUTHORIZED' });
    }
  });

  it("is FORBIDDEN when the wallet is not the agent's or another key signed", async () => {
    const byOther = service.parse({ wallet: owner.address, signature: await header(other) });
    expect(codeOf(() => service.verify(byOther, owner.address))).toBe('FORBIDDEN');
    const claimOther = service.parse({ wallet: other.address, signature: await header(other) });
    expect(codeOf(() => service.verify(claimOther, owner.address))).toBe('FORBIDDEN');
  });
});

describe('parseAuthHeader', () => {
  it('rejects high-s signatures and bad recovery bytes', async () => {
    const w = new Wallet(Wallet.createRandom().privateKey);
    const message = `agora-auth:${AGENT}:${NOW}`;
    const sig = Signature.from(await w.signMessage(message));
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const highS = (n - BigInt(sig.s)).toString(16).padStart(64, '0');
    expect(() => parseAuthHeader(`${message}:sig:${sig.r}${highS}1c`, 'X')).toThrow(/high s/);
    expect(() => parseAuthHeader(`${message}:sig:${sig.r}${sig.s.slice(2)}05`, 'X')).toThrow(/recovery byte/);
    expect(parseAuthHeader(`${message}:sig:${sig.serialized}`, 'X').message).toBe(message);
  });

  it('accepts non-UUID subjects only when asked (client proofs name a transaction id)', () => {
    const h = `agora-auth:tx_abc:${NOW}:sig:0x${'1'.repeat(64)}${'2'.repeat(64)}1b`;
    expect(() => parseAuthHeader(h, 'X')).toThrow(/UUID/);
    expect(parseAuthHeader(h, 'X', 'any').subjectId).toBe('tx_abc');
  });
});
