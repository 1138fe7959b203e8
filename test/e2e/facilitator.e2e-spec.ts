import { keccak256, toUtf8Bytes } from 'ethers';
import { DataSource } from 'typeorm';
import { AppException, FixedClock } from '@app/common';
import { PaymentSettlement, PaymentsService, PLATFORM_FEE } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { agentPayload, REGISTRATION_FEE_MICROS } from '../support/factories';
import { TestFacilitator } from '../support/facilitator-server';
import { newWallet } from '../support/wallets';
import { decodePaymentResponse, x402Header } from '../support/x402';
import { DEV_PLATFORM_WALLET } from '@app/config';
import { TEST_SEEDS } from '../support/evm-env';

/** SETTLEMENT_MODE=facilitator against a facilitator speaking the x402 API on loopback. */
describe('facilitator settlement (e2e)', () => {
  let facilitator: TestFacilitator;
  let api: ApiHarness;
  let ds: DataSource;
  const clock = new FixedClock(new Date());

  beforeAll(async () => {
    facilitator = await new TestFacilitator().start();
    api = await startApi({ SETTLEMENT_MODE: 'facilitator', PLATFORM_WALLET: DEV_PLATFORM_WALLET, ...TEST_SEEDS, FACILITATOR_URL: facilitator.url }, { clock });
    ds = api.app.get(DataSource);
  });
  afterAll(async () => {
    await api.close();
    await facilitator.stop();
  });
  beforeEach(() => {
    facilitator.calls.length = 0;
    facilitator.verify = 'ok';
    facilitator.settle = 'ok';
  });

  const register = async (wallet = newWallet()) => {
    const h = await x402Header(wallet, { amount: REGISTRATION_FEE_MICROS, payTo: api.config.platformWallet });
    return { wallet, h, res: await api.request('POST', '/api/v1/agents', { body: agentPayload(wallet), headers: { [h.name]: h.value } }) };
  };
  const agents = async () => (await ds.query(`SELECT count(*)::int AS n FROM agents`))[0].n as number;

  it('verifies, then settles through the facilitator, and answers its transaction', async () => {
    const { wallet, h, res } = await register();
    expect(res.status).toBe(201);
    expect(facilitator.calls.map((c) => c.path)).toEqual(['/verify', '/settle']);
    const body = facilitator.calls[1].body;
    expect(body).toMatchObject({
      x402Version: 1,
      paymentPayload: { x402Version: 1, scheme: 'exact', network: 'base-sepolia', payload: { authorization: { from: wallet.address, value: '100000' } } },
      paymentRequirements: { scheme: 'exact', network: 'base-sepolia', maxAmountRequired: '100000', payTo: api.config.platformWallet, extra: { name: 'USDC', version: '2' } },
    });
    const expectedTx = keccak256(toUtf8Bytes(`settled:${h.nonce}`));
    expect(decodePaymentResponse(res.headers.get('x-payment-response')).transaction).toBe(expectedTx);
    const [row] = await ds.query(`SELECT status, tx_hash FROM payments WHERE payer = $1`, [wallet.address.toLowerCase()]);
    expect(row).toEqual({ status: 'settled', tx_hash: expectedTx });
  });

  it("passes the facilitator's refusal on as PAYMENT_INVALID, reserving and settling nothing", async () => {
    facilitator.verify = { invalidReason: 'insufficient_funds' };
    const before = await agents();
    const { res } = await register();
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: 'PAYMENT_INVALID', details: { reason: 'insufficient_funds' } });
    expect(facilitator.calls.map((c) => c.path)).toEqual(['/verify']);
    expect(await agents()).toBe(before);
    expect((await ds.query(`SELECT count(*)::int AS n FROM payments WHERE status = 'reserved'`))[0].n).toBe(0);
  });

  it('answers SETTLEMENT_FAILED (502) and creates no agent when the facilitator cannot settle', async () => {
    facilitator.settle = 'fail';
    const before = await agents();
    const { wallet, res } = await register();
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('SETTLEMENT_FAILED');
    expect(await agents()).toBe(before);
    const [row] = await ds.query(`SELECT status, purpose, last_error FROM payments WHERE payer = $1`, [wallet.address.toLowerCase()]);
    expect(row).toMatchObject({ status: 'settlement_failed', purpose: 'registration', last_error: expect.stringMatching(/invalid_transaction_state/) });
    // A failed registration is never settled later behind the client's back.
    clock.advance(3_600_000);
    expect(await api.app.get(PaymentSettlement).due()).toEqual([]);
  });

  it('answers 502 without charging when the facilitator is unreachable', async () => {
    const down = await startApi({ SETTLEMENT_MODE: 'facilitator', PLATFORM_WALLET: DEV_PLATFORM_WALLET, ...TEST_SEEDS, FACILITATOR_URL: 'http://127.0.0.1:9' });
    try {
      const wallet = newWallet();
      const h = await x402Header(wallet, { amount: REGISTRATION_FEE_MICROS, payTo: down.config.platformWallet });
      const res = await down.request('POST', '/api/v1/agents', { body: agentPayload(wallet), headers: { [h.name]: h.value } });
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('SETTLEMENT_FAILED');
      expect((await down.app.get(DataSource).query(`SELECT count(*)::int AS n FROM payments`))[0].n).toBe(0);
    } finally {
      await down.close();
    }
  });

  it('retries a failed execution settlement on schedule until it settles', async () => {
    const payments = api.app.get(PaymentsService);
    const client = newWallet();
    const price = { amount: PLATFORM_FEE + 50_000n, resource: `${api.config.publicBaseUrl}/api/v1/execute`, description: 'test execution' };
    const nowS = BigInt(Math.floor(clock.nowMs() / 1000));
    const h = await x402Header(client, { amount: price.amount, payTo: api.config.platformWallet, validAfter: nowS - 600n, validBefore: nowS + 300n });
    const reserved = await payments.authorize({ value: h.value, version: h.name === 'X-PAYMENT' ? 1 : 2 }, price, { purpose: 'execution' });

    facilitator.settle = 'http-500';
    const err = await api.app
      .get(PaymentSettlement)
      .settle(reserved.id)
      .catch((e: unknown) => e);
    expect((err as AppException).code).toBe('SETTLEMENT_FAILED');
    const [failed] = await ds.query(`SELECT status, settle_attempts, next_attempt_at FROM payments WHERE id = $1`, [reserved.id]);
    expect(failed).toMatchObject({ status: 'settlement_failed', settle_attempts: 1 });
    expect(new Date(failed.next_attempt_at).getTime() - clock.nowMs()).toBe(30_000);
    expect(await api.app.get(PaymentSettlement).due()).not.toContain(reserved.id);

    clock.advance(30_000);
    expect(await api.app.get(PaymentSettlement).due()).toContain(reserved.id);
    facilitator.settle = 'ok';
    const settled = await api.app.get(PaymentSettlement).settle(reserved.id);
    expect(settled).toMatchObject({ status: 'settled', settleAttempts: 2, txHash: keccak256(toUtf8Bytes(`settled:${h.nonce}`)) });
    expect(await api.app.get(PaymentSettlement).due()).not.toContain(reserved.id);
  });
});
