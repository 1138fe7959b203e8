import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from '../support/api-harness';
import { agentPayload, REGISTRATION_FEE_MICROS } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

/** x402 on the registration fee (resolutions §2), paid by the real public client libraries. */
describe('x402 payments (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;

  beforeAll(async () => {
    api = await startApi();
    ds = api.app.get(DataSource);
  });
  afterAll(async () => {
    await api.close();
  });

  const counts = async () => {
    const [r] = await ds.query(
      `SELECT (SELECT count(*) FROM agents)::int AS agents, (SELECT count(*) FROM payments)::int AS payments,
              (SELECT count(*) FROM ledger_transactions)::int AS journal,
              coalesce((SELECT sum(balance) FROM ledger_accounts WHERE kind = 'revenue'), 0)::text AS revenue`,
    );
    return r as { agents: number; payments: number; journal: number; revenue: string };
  };
  const register = (wallet: Wallet, headers: Record<string, string>, body = agentPayload(wallet)) =>
    api.request('POST', '/api/v1/agents', { body, headers });
  const payFor = (wallet: Wallet, o: Partial<Parameters<typeof x402Header>[1]> = {}) =>
    x402Header(wallet, { amount: REGISTRATION_FEE_MICROS, payTo: api.config.platformWallet, ...o });

  describe('PAYMENT_INVALID', () => {
    const now = () => BigInt(Math.floor(Date.now() / 1000));
    const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64');
    const tamper = async (wallet: Wallet, edit: (decoded: any) => void) => {
      const h = await payFor(wallet);
      const decoded = JSON.parse(Buffer.from(h.value, 'base64').toString());
      edit(decoded);
      return { 'X-PAYMENT': b64(decoded) };
    };
    const cases: [string, (w: Wallet) => Promise<Record<string, string>>, string][] = [
      ['a header that is not base64 JSON', async () => ({ 'X-PAYMENT': '%%%not-base64%%%' }), 'invalid_payload'],
      ['a JSON scalar', async () => ({ 'X-PAYMENT': b64('42') }), 'invalid_payload'],
      ['an unknown x402 version', (w) => tamper(w, (d) => (d.x402Version = 3)), 'invalid_x402_version'],
      [
        'a v2 payload in the v1 header',
        async (w) => payFor(w, { version: 2 }).then((h) => ({ 'X-PAYMENT': h.value })),
        'invalid_x402_version',
      ],
      ['another scheme', (w) => tamper(w, (d) => (d.scheme = 'upto')), 'invalid_scheme'],
      ['a network not offered', (w) => tamper(w, (d) => (d.network = 'base')), 'invalid_network'],
      ['a malformed nonce', (w) => tamper(w, (d) => (d.payload.authorization.nonce = '0x1234')), 'invalid_payload'],
      [
        'an authorization changed after signing',
        (w) => tamper(w, (d) => (d.payload.authorization.validBefore = String(now() + 200n))),
        'invalid_exact_evm_payload_signature',
      ],
      [
        'a signature under the wrong EIP-712 name',
        async (w) => payFor(w, { assetName: 'USD Coin' }).then((h) => ({ [h.name]: h.value })),
        'invalid_exact_evm_payload_signature',
      ],
      [
        'a payment to another address',
        async (w) => payFor(w, { to: Wallet.createRandom().address }).then((h) => ({ [h.name]: h.value })),
        'invalid_exact_evm_payload_recipient_mismatch',
      ],
      [
        'a value below the amount due',
        async (w) => payFor(w, { value: 99_999n }).then((h) => ({ [h.name]: h.value })),
        'invalid_exact_evm_payload_authorization_value',
      ],
      [
        'a value above the amount due',
        async (w) => payFor(w, { value: 100_001n }).then((h) => ({ [h.name]: h.value })),
        'invalid_exact_evm_payload_authorization_value',
      ],
      [
        'an expired authorization',
        async (w) => payFor(w, { validBefore: now() - 1n }).then((h) => ({ [h.name]: h.value })),
        'invalid_exact_evm_payload_authorization_valid_before',
      ],
      [
        'one expiring within 6 s',
        async (w) => payFor(w, { validBefore: now() + 3n }).then((h) => ({ [h.name]: h.value })),
        'invalid_exact_evm_payload_authorization_valid_before',
      ],
      [
        'one valid for over an hour',
        async (w) => payFor(w, { validBefore: now() + 7_200n }).then((h) => ({ [h.name]: h.value })),
        'invalid_exact_evm_payload_authorization_valid_before',
      ],
      [
        'one not valid yet',
        async (w) => payFor(w, { validAfter: now() + 120n }).then((h) => ({ [h.name]: h.value })),
        'invalid_exact_evm_payload_authorization_valid_after',
      ],
      [
        'a v2 payload for another asset',
        async (w) =>
          payFor(w, { version: 2, asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' }).then((h) => ({
            [h.name]: h.value,
          })),
        'invalid_payment_requirements',
      ],
      [
        'a v2 payload on another chain',
        async (w) =>
          payFor(w, { version: 2, chainId: 8453, network: 'eip155:8453' }).then((h) => ({ [h.name]: h.value })),
        'invalid_network',
      ],
    ];

    it.each(cases)(
      'answers %s with 402 PAYMENT_INVALID and the x402 reason, charging nothing',
      async (_label, headers, reason) => {
        const wallet = newWallet();
        const before = await counts();
        const res = await register(wallet, await headers(wallet));
        expect(res.status).toBe(402);
        expect(res.body.error).toMatchObject({ code: 'PAYMENT_INVALID', details: { reason } });
        expect(res.body.x402Version).toBe(1);
        expect(res.body.accepts).toHaveLength(1);
        expect(res.headers.get('payment-required')).toBeTruthy();
        expect(await counts()).toEqual(before);
      },
    );
  });
});
