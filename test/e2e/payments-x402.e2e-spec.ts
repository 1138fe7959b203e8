import { Signature, Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { wrapFetchWithPayment as wrapFetchV1, decodeXPaymentResponse } from 'x402-fetch';
import { createSigner, PaymentRequirementsSchema } from 'x402/types';
import { wrapFetchWithPayment as wrapFetchV2, x402Client, decodePaymentResponseHeader } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { agentPayload, REGISTRATION_FEE_MICROS } from '../support/factories';
import { newWallet } from '../support/wallets';
import { decodePaymentResponse, x402Header } from '../support/x402';
import { evmSigner } from '../support/x402-client';

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
  const allInvariants = async () =>
    (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS])).results.filter(
      (r) => r.violations.length,
    );

  it('answers an unpaid registration with 402: the envelope, the v1 body and the v2 PAYMENT-REQUIRED header', async () => {
    const before = await counts();
    const res = await register(newWallet(), {});
    expect(res.status).toBe(402);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toMatchObject({
      code: 'PAYMENT_REQUIRED',
      details: { amount: '0.100000', currency: 'USDC' },
    });
    expect(res.body.x402Version).toBe(1);
    expect(res.body.accepts).toEqual([
      {
        scheme: 'exact',
        network: 'base-sepolia',
        maxAmountRequired: '100000',
        resource: `${api.config.publicBaseUrl}/api/v1/agents`,
        description: 'agora agent registration fee',
        mimeType: 'application/json',
        payTo: api.config.platformWallet,
        maxTimeoutSeconds: 300,
        asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
        extra: { name: 'USDC', version: '2', livemode: false },
      },
    ]);
    // Strict enough for the v1 client: x402's own schema accepts every entry.
    for (const entry of res.body.accepts) expect(() => PaymentRequirementsSchema.parse(entry)).not.toThrow();
    const v2 = JSON.parse(Buffer.from(res.headers.get('payment-required')!, 'base64').toString());
    expect(v2).toMatchObject({
      x402Version: 2,
      resource: { url: `${api.config.publicBaseUrl}/api/v1/agents`, mimeType: 'application/json' },
      accepts: [
        {
          scheme: 'exact',
          network: 'eip155:84532',
          amount: '100000',
          payTo: api.config.platformWallet,
          extra: { name: 'USDC', version: '2' },
        },
      ],
    });
    expect(await counts()).toEqual(before);
  });

  it('lists ethereum only in the v2 header, never in the v1 body', async () => {
    const multi = await startApi({ PAYMENT_NETWORKS: 'base-sepolia,base,ethereum' });
    try {
      const res = await multi.request('POST', '/api/v1/agents', { body: agentPayload(newWallet()) });
      expect(res.body.accepts.map((a: { network: string }) => a.network)).toEqual(['base-sepolia', 'base']);
      const v2 = JSON.parse(Buffer.from(res.headers.get('payment-required')!, 'base64').toString());
      expect(v2.accepts.map((a: { network: string }) => a.network)).toEqual([
        'eip155:84532',
        'eip155:8453',
        'eip155:1',
      ]);
      expect(v2.accepts.map((a: { extra: { name: string } }) => a.extra.name)).toEqual([
        'USDC',
        'USD Coin',
        'USD Coin',
      ]);
    } finally {
      await multi.close();
    }
  });

  it('is paid by x402-fetch (v1, X-PAYMENT) unchanged, answering X-PAYMENT-RESPONSE', async () => {
    const wallet = newWallet();
    const signer = await createSigner('base-sepolia', wallet.privateKey as `0x${string}`);
    const before = await counts();
    const pay = wrapFetchV1(fetch, signer);
    const res = await pay(`${api.baseUrl}/api/v1/agents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(agentPayload(wallet)),
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { data: { id: string; wallet: string } };
    expect(body.data.wallet).toBe(wallet.address);
    const settlement = decodeXPaymentResponse(res.headers.get('x-payment-response')!);
    expect(settlement).toMatchObject({ success: true, network: 'base-sepolia', payer: wallet.address.toLowerCase() });
    expect(settlement.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    const after = await counts();
    expect(after.agents).toBe(before.agents + 1);
    expect(BigInt(after.revenue) - BigInt(before.revenue)).toBe(REGISTRATION_FEE_MICROS);
    const [payment] = await ds.query(`SELECT status, ref_id, purpose, x402_version FROM payments WHERE payer = $1`, [
      wallet.address.toLowerCase(),
    ]);
    expect(payment).toEqual({ status: 'settled', ref_id: body.data.id, purpose: 'registration', x402_version: 1 });
    expect(await allInvariants()).toEqual([]);
  });

  it('is paid by @x402/fetch (v2, PAYMENT-SIGNATURE) unchanged, answering PAYMENT-RESPONSE', async () => {
    const wallet = newWallet();
    // An ethers wallet as the v2 signer (the @x402/evm signer interface: address + signTypedData).
    const signer = evmSigner(wallet);
    const client = registerExactEvmScheme(new x402Client(), { signer });
    const pay = wrapFetchV2(fetch, client);
    const res = await pay(`${api.baseUrl}/api/v1/agents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(agentPayload(wallet)),
    });
    expect(res.status).toBe(201);
    const settlement = decodePaymentResponseHeader(res.headers.get('payment-response')!);
    expect(settlement).toMatchObject({ success: true, network: 'eip155:84532', payer: wallet.address.toLowerCase() });
    const [payment] = await ds.query(`SELECT status, x402_version FROM payments WHERE payer = $1`, [
      wallet.address.toLowerCase(),
    ]);
    expect(payment).toEqual({ status: 'settled', x402_version: 2 });
  });

  it('refuses a payment from another wallet than the one registered (WALLET_MISMATCH), reserving nothing', async () => {
    const before = await counts();
    const res = await register(newWallet(), await payFor(newWallet()).then((h) => ({ [h.name]: h.value })));
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('WALLET_MISMATCH');
    expect(await counts()).toEqual(before);
  });

  // Issue 16, defect 1: a NUL byte in `name` used to fail at the insert (500) after the fee had settled.
  it('refuses a paid registration whose content Postgres cannot store before settling anything, and the same header then pays a valid one', async () => {
    const wallet = newWallet();
    const headers = await payFor(wallet).then((h) => ({ [h.name]: h.value }));
    const before = await counts();
    for (const name of ['bad\u0000name', 'lone \ud800 surrogate']) {
      const res = await register(wallet, headers, { ...agentPayload(wallet), name });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ field: '/name' }] } });
    }
    expect(await counts()).toEqual(before);
    const ok = await register(wallet, headers);
    expect(ok.status).toBe(201);
    expect(await counts()).toMatchObject({ agents: before.agents + 1, payments: before.payments + 1 });
  });
  it('charges nothing for a request that fails validation, and the same payment then works', async () => {
    const wallet = newWallet();
    const h = await payFor(wallet);
    const before = await counts();
    const bad = await register(wallet, { [h.name]: h.value }, agentPayload(wallet, { name: 'x' }));
    expect(bad.status).toBe(400);
    expect(await counts()).toEqual(before);
    const good = await register(wallet, { [h.name]: h.value });
    expect(good.status).toBe(201);
  });

  it('refuses a replayed payment header with 409 PAYMENT_REPLAYED', async () => {
    const wallet = newWallet();
    const h = await payFor(wallet);
    expect((await register(wallet, { [h.name]: h.value })).status).toBe(201);
    const before = await counts();
    const replay = await register(wallet, { [h.name]: h.value }, agentPayload(wallet, { name: 'Second Agent' }));
    expect(replay.status).toBe(409);
    expect(replay.body.error.code).toBe('PAYMENT_REPLAYED');
    expect(await counts()).toEqual(before);
  });

  it('refuses the high-s twin of a used payment signature (never a second charge)', async () => {
    const wallet = newWallet();
    const h = await payFor(wallet);
    expect((await register(wallet, { [h.name]: h.value })).status).toBe(201);
    const decoded = JSON.parse(Buffer.from(h.value, 'base64').toString());
    const sig = Signature.from(decoded.payload.signature);
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    decoded.payload.signature = `${sig.r}${(n - BigInt(sig.s)).toString(16).padStart(64, '0')}${sig.v === 27 ? '1c' : '1b'}`;
    const before = await counts();
    const twin = await register(
      wallet,
      { 'X-PAYMENT': Buffer.from(JSON.stringify(decoded)).toString('base64') },
      agentPayload(wallet, { name: 'Twin Agent' }),
    );
    expect([402, 409]).toContain(twin.status);
    expect(await counts()).toEqual(before);
  });

  it('refuses a fresh payment whose signature has a high s (USDC would refuse it on chain): 402, nothing reserved', async () => {
    const wallet = newWallet();
    const decoded = JSON.parse(Buffer.from((await payFor(wallet)).value, 'base64').toString());
    const sig = Signature.from(decoded.payload.signature);
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    decoded.payload.signature = `${sig.r}${(n - BigInt(sig.s)).toString(16).padStart(64, '0')}${sig.v === 27 ? '1c' : '1b'}`;
    const before = await counts();
    const res = await register(wallet, { 'X-PAYMENT': Buffer.from(JSON.stringify(decoded)).toString('base64') });
    expect([res.status, res.body.error.code, res.body.error.details.reason]).toEqual([
      402,
      'PAYMENT_INVALID',
      'invalid_exact_evm_payload_signature',
    ]);
    expect(await counts()).toEqual(before);
  });

  it('G7: the same payment sent 20 times concurrently charges once; 19 get PAYMENT_REPLAYED', async () => {
    const wallet = newWallet();
    const h = await payFor(wallet);
    const before = await counts();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        register(wallet, { [h.name]: h.value }, agentPayload(wallet, { name: `Racer ${i}` })),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.error.code === 'PAYMENT_REPLAYED')).toHaveLength(19);
    const after = await counts();
    expect(after.agents).toBe(before.agents + 1);
    expect(after.payments).toBe(before.payments + 1);
    expect(BigInt(after.revenue) - BigInt(before.revenue)).toBe(REGISTRATION_FEE_MICROS);
    const ok = results.find((r) => r.status === 201)!;
    expect(decodePaymentResponse(ok.headers.get('x-payment-response')).success).toBe(true);
    expect(await allInvariants()).toEqual([]);
  });
});
