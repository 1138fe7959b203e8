import { createHash } from 'node:crypto';
import { Signature, Wallet } from 'ethers';
import { AppException, FixedClock } from '@app/common';
import { loadConfig } from '@app/config';
import { parseAuthHeader } from './wallet-signature';
import { UsedAuthMessagesRepository } from './used-auth-messages.repository';
import { WalletAuthService } from './wallet-auth.service';

const AGENT = '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

/** A read: the unbound message is accepted for it. */
const READ = { method: 'GET', path: `/api/v1/payments/history/${AGENT}` };
const WITHDRAW = { method: 'POST', path: '/api/v1/payments/withdraw' };

async function header(wallet: Wallet, ts = NOW, subject = AGENT, action?: string): Promise<string> {
  const message = `agora-auth:${subject}:${ts}${action ? `:${action}` : ''}`;
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
  const service = new WalletAuthService(loadConfig({}), clock, new UsedAuthMessagesRepository());

  it('accepts the registered wallet signing agora-auth:<agent>:<ts>', async () => {
    const step1 = service.parse({ wallet: owner.address, signature: await header(owner) }, READ);
    const ctx = service.verify(step1, owner.address);
    expect(ctx).toEqual({
      agentId: AGENT,
      wallet: owner.address,
      timestampMs: NOW,
      forChange: false,
      unbound: true,
      messageKey: `${AGENT}:${NOW}`,
      expiresAt: new Date(NOW + 300_000),
    });
  });

  it('compares wallets case-insensitively', async () => {
    const step1 = service.parse({ wallet: owner.address.toLowerCase(), signature: await header(owner) }, READ);
    expect(service.verify(step1, owner.address).agentId).toBe(AGENT);
  });

  it('is UNAUTHORIZED when headers are missing or malformed', async () => {
    const sig = await header(owner);
    expect(codeOf(() => service.parse({}, READ))).toBe('UNAUTHORIZED');
    expect(codeOf(() => service.parse({ signature: sig }, READ))).toBe('UNAUTHORIZED');
    expect(codeOf(() => service.parse({ wallet: owner.address }, READ))).toBe('UNAUTHORIZED');
    expect(codeOf(() => service.parse({ wallet: '0xnope', signature: sig }, READ))).toBe('UNAUTHORIZED');
    expect(
      codeOf(() => service.parse({ wallet: owner.address, signature: sig.replace(AGENT, 'not-a-uuid') }, READ)),
    ).toBe('UNAUTHORIZED');
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
      expect({ offset, code: codeOf(() => service.parse({ wallet: owner.address, signature: sig }, READ)) }).toEqual({
        offset,
        code: ok ? undefined : 'UNAUTHORIZED',
      });
    }
  });

  it("is FORBIDDEN when the wallet is not the agent's or another key signed", async () => {
    const byOther = service.parse({ wallet: owner.address, signature: await header(other) }, READ);
    expect(codeOf(() => service.verify(byOther, owner.address))).toBe('FORBIDDEN');
    const claimOther = service.parse({ wallet: other.address, signature: await header(other) }, READ);
    expect(codeOf(() => service.verify(claimOther, owner.address))).toBe('FORBIDDEN');
  });

  it("takes the contract's unbound message for a change, and a bound one only for its request", async () => {
    const unbound = await header(owner);
    const change = service.verify(
      service.parse({ wallet: owner.address, signature: unbound }, WITHDRAW),
      owner.address,
    );
    expect(change).toMatchObject({ forChange: true, unbound: true, messageKey: `${AGENT}:${NOW}` });
    const patch = { method: 'PATCH', path: `/api/v1/agents/${AGENT}` };
    expect(service.verify(service.parse({ wallet: owner.address, signature: unbound }, patch), owner.address)).toEqual(
      expect.objectContaining({ forChange: true, unbound: true }),
    );
    const forRead = await header(owner, NOW, AGENT, `GET ${READ.path}`);
    expect(
      service.verify(service.parse({ wallet: owner.address, signature: forRead }, READ), owner.address).forChange,
    ).toBe(false);
    expect(codeOf(() => service.parse({ wallet: owner.address, signature: forRead }, WITHDRAW))).toBe('FORBIDDEN');
    const forWithdraw = await header(owner, NOW, AGENT, 'POST /api/v1/payments/withdraw');
    expect(
      service.verify(service.parse({ wallet: owner.address, signature: forWithdraw }, WITHDRAW), owner.address)
        .forChange,
    ).toBe(true);
    expect(
      codeOf(() =>
        service.parse(
          { wallet: owner.address, signature: forWithdraw },
          { method: 'DELETE', path: `/api/v1/agents/${AGENT}` },
        ),
      ),
    ).toBe('FORBIDDEN');
    expect(codeOf(() => service.parse({ wallet: owner.address, signature: forWithdraw }, READ))).toBe('FORBIDDEN');
    // The signed text covers the action: the same signature under another action does not recover the owner.
    const moved = forWithdraw.replace('POST /api/v1/payments/withdraw', `PATCH /api/v1/agents/${AGENT}`);
    expect(
      codeOf(() =>
        service.verify(
          service.parse(
            { wallet: owner.address, signature: moved },
            { method: 'PATCH', path: `/api/v1/agents/${AGENT}` },
          ),
          owner.address,
        ),
      ),
    ).toBe('FORBIDDEN');
  });

  it('binds the body when the message names its SHA-256: another body is FORBIDDEN', async () => {
    const body = '{"agentId":"a","amount":"1.50","destinationWallet":"0x1"}';
    const sha = createHash('sha256').update(body).digest('hex');
    const signed = await header(owner, NOW, AGENT, `POST /api/v1/payments/withdraw:${sha}`);
    const ok = service.parse({ wallet: owner.address, signature: signed }, { ...WITHDRAW, bodySha256: sha });
    expect(service.verify(ok, owner.address)).toMatchObject({ forChange: true, unbound: false });
    const altered = createHash('sha256').update(body.replace('1.50', '9.50')).digest('hex');
    expect(
      codeOf(() => service.parse({ wallet: owner.address, signature: signed }, { ...WITHDRAW, bodySha256: altered })),
    ).toBe('FORBIDDEN');
    // No body received: compared with the hash of no bytes.
    expect(codeOf(() => service.parse({ wallet: owner.address, signature: signed }, WITHDRAW))).toBe('FORBIDDEN');
    const empty = await header(
      owner,
      NOW,
      AGENT,
      `POST /api/v1/payments/withdraw:${createHash('sha256').digest('hex')}`,
    );
    expect(codeOf(() => service.parse({ wallet: owner.address, signature: empty }, WITHDRAW))).toBeUndefined();
    // The hash is part of the signed text: a signature moved onto another hash does not recover the owner.
    const moved = signed.replace(sha, altered);
    const step1 = service.parse({ wallet: owner.address, signature: moved }, { ...WITHDRAW, bodySha256: altered });
    expect(codeOf(() => service.verify(step1, owner.address))).toBe('FORBIDDEN');
  });

  it('never consumes a message presented on a read', async () => {
    const ctx = service.verify(
      service.parse({ wallet: owner.address, signature: await header(owner) }, READ),
      owner.address,
    );
    const manager = { query: jest.fn() };
    await expect(service.consume(manager as never, ctx)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(manager.query).not.toHaveBeenCalled();
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

  it('reads the action a message was signed for, and refuses a malformed one', () => {
    const sig = `0x${'1'.repeat(64)}${'2'.repeat(64)}1b`;
    const parsed = parseAuthHeader(`agora-auth:${AGENT}:${NOW}:POST /api/v1/payments/withdraw:sig:${sig}`, 'X');
    expect(parsed).toMatchObject({
      action: 'POST /api/v1/payments/withdraw',
      message: `agora-auth:${AGENT}:${NOW}:POST /api/v1/payments/withdraw`,
    });
    expect(parseAuthHeader(`agora-auth:${AGENT}:${NOW}:sig:${sig}`, 'X').action).toBeNull();
    const hash = 'ab'.repeat(32);
    expect(parseAuthHeader(`agora-auth:${AGENT}:${NOW}:POST /x:${hash.toUpperCase()}:sig:${sig}`, 'X')).toMatchObject({
      action: 'POST /x',
      bodySha256: hash,
      message: `agora-auth:${AGENT}:${NOW}:POST /x:${hash.toUpperCase()}`,
    });
    for (const action of ['post /x', 'POST x', 'POST /a b', 'POST', 'POST /a:b', `POST /x:${hash}0`, `POST /x:zz`]) {
      expect(() => parseAuthHeader(`agora-auth:${AGENT}:${NOW}:${action}:sig:${sig}`, 'X')).toThrow(/must be/);
    }
  });

  it('accepts non-UUID subjects only when asked (client proofs name a transaction id)', () => {
    const h = `agora-auth:tx_abc:${NOW}:sig:0x${'1'.repeat(64)}${'2'.repeat(64)}1b`;
    expect(() => parseAuthHeader(h, 'X')).toThrow(/UUID/);
    expect(parseAuthHeader(h, 'X', 'any').subjectId).toBe('tx_abc');
  });
});
