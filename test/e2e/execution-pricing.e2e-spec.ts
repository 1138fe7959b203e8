import { DataSource } from 'typeorm';
import { formatMicros } from '@app/common';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS, ProcessRefund } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

/**
 * Variable pricing (resolutions §2): the client pays platform fee + maxPrice, is charged
 * min(actual, cap), and the rest goes back as a refund the worker sends.
 */
describe('Variable pricing (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  let agentId: string;

  const caps = {
    chat: { model: 'per-token', basePrice: '0.002', maxPrice: '0.05' }, // 0.002 per 1,000 tokens
    think: { model: 'per-minute', basePrice: '0.06', maxPrice: '0.01' }, // 0.001 per second
    quote: { model: 'dynamic', basePrice: '0.01', maxPrice: '0.2' },
  } as const;
  const authorized = { chat: 51_000n, think: 11_000n, quote: 201_000n };

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    ds = api.app.get(DataSource);
    const res = await registerAgent(api, newWallet(), {
      endpoints: { execution: agentServer.url },
      capabilities: Object.entries(caps).map(([id, p]) =>
        capabilityPayload({ id, name: id, pricing: { ...p, currency: 'USDC' } }),
      ),
    });
    expect(res.body.error).toBeUndefined();
    agentId = res.body.data.id;
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  type Cap = keyof typeof caps;
  const run = async (capabilityId: Cap, input: Record<string, unknown>, client = newWallet()) => {
    const h = await x402Header(client, { amount: authorized[capabilityId], payTo: api.config.platformWallet });
    const res = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId, input },
      headers: { [h.name]: h.value },
    });
    return { res, client, headers: { [h.name]: h.value } };
  };
  const payable = async (wallet: string) =>
    BigInt(
      (
        await ds.query(`SELECT coalesce((SELECT balance FROM ledger_accounts WHERE code = $1), 0)::text AS b`, [
          `client:${wallet.toLowerCase()}:refund_payable`,
        ])
      )[0].b,
    );
  const invariants = async () =>
    (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS])).results.filter(
      (r) => r.violations.length,
    );
  const charges = async () => (await ds.query(`SELECT count(*)::int AS n FROM transactions`))[0].n as number;

  it('asks for the platform fee plus the cap (maxPrice) and says the unused part is refunded', async () => {
    const res = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'chat', input: { text: 'hi' } },
    });
    expect(res.status).toBe(402);
    expect(res.body.accepts[0].maxAmountRequired).toBe('51000');
    expect(res.body.accepts[0].description).toMatch(/per-token, up to 0\.050000 USDC; the unused part is refunded/);
  });

  it('per-token: charges basePrice per 1,000 reported tokens and refunds the rest of the cap, paid out by the refund job', async () => {
    const { res, client, headers } = await run('chat', { text: 'hello', tokens: 1_500 });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({
      status: 'completed',
      output: { translation: 'HELLO' },
      cost: {
        agentFee: '0.003000',
        platformFee: '0.001000',
        total: '0.004000',
        pricingModel: 'per-token',
        maxPrice: '0.050000',
        authorized: '0.051000',
        refunded: '0.047000',
      },
      usage: { tokens: 1_500 },
      refund: { refundId: expect.stringMatching(/^rfd_/), amount: '0.047000', status: 'pending', txHash: null },
      settlement: { status: 'settled' },
    });
    // The whole authorization settled; the transaction records the charge; the rest is owed to the payer.
    const [payment] = await ds.query(
      `SELECT p.value::text, p.status FROM payments p JOIN executions e ON e.payment_id = p.id WHERE e.id = $1`,
      [data.requestId],
    );
    expect(payment).toEqual({ value: '51000', status: 'settled' });
    const tx = (await api.request('GET', `/api/v1/payments/tx/${data.transactionId}`)).body.data;
    expect(tx).toMatchObject({
      amount: '0.003000',
      gross_amount: '0.004000',
      platformCut: '0.000150',
      agent_earnings: '0.002850',
    });
    expect(await payable(client.address)).toBe(47_000n);
    expect(await invariants()).toEqual([]);

    const refunds = api.app.get(ProcessRefund);
    expect(await refunds.execute(data.refund.refundId)).toBe('completed');
    expect(await refunds.execute(data.refund.refundId)).toBe('skipped'); // a duplicate job moves nothing
    expect(await payable(client.address)).toBe(0n);
    const after = (await api.request('GET', `/api/v1/execute/${data.requestId}`, { headers })).body.data;
    expect(after.refund).toEqual({
      refundId: data.refund.refundId,
      amount: '0.047000',
      status: 'completed',
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      livemode: false,
    });
    const [paid] = await ds.query(
      `SELECT count(*)::int AS n FROM ledger_transactions WHERE code = 'refund.paid' AND ref_id = $1`,
      [data.refund.refundId],
    );
    expect(paid.n).toBe(1);
    expect(await invariants()).toEqual([]);
  });

  it('per-token: usage above the cap is charged the cap, with no refund', async () => {
    const { res, client } = await run('chat', { text: 'long', tokens: 90_000_000 });
    expect(res.status).toBe(200);
    expect(res.body.data.cost).toMatchObject({ agentFee: '0.050000', total: '0.051000', refunded: '0.000000' });
    expect(res.body.data.refund).toBeUndefined();
    expect(await payable(client.address)).toBe(0n);
    expect(await invariants()).toEqual([]);
  });

  it('per-token: an agent that reports no usage.tokens fails the run and nothing is charged', async () => {
    const before = await charges();
    const { res } = await run('chat', { text: 'quiet', mode: 'no-usage' });
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({
      code: 'EXECUTION_FAILED',
      details: { agentError: expect.stringMatching(/usage\.tokens/) },
    });
    expect(await charges()).toBe(before);
    const [payment] = await ds.query(
      `SELECT p.status FROM payments p JOIN executions e ON e.payment_id = p.id WHERE e.id = $1`,
      [res.body.error.details.requestId],
    );
    expect(payment.status).toBe('reserved'); // never settled: still usable by a retry
  });

  it('per-minute: bills every started second of execution time', async () => {
    const { res } = await run('think', { text: 'ponder', delayMs: 1_200 });
    expect(res.status).toBe(200);
    const seconds = Math.ceil(res.body.data.executionTime / 1000);
    expect(seconds).toBeGreaterThanOrEqual(2);
    const fee = BigInt(seconds) * 1_000n;
    expect(res.body.data.cost).toMatchObject({
      agentFee: formatMicros(fee),
      pricingModel: 'per-minute',
      refunded: formatMicros(10_000n - fee),
    });
    expect(res.body.data.refund.amount).toBe(formatMicros(10_000n - fee));
  });

  it('dynamic: charges the cost the agent returns, capped; zero cost refunds the whole agent part', async () => {
    const a = await run('quote', { text: 'q', cost: '0.0123' });
    expect(a.res.body.data.cost).toMatchObject({ agentFee: '0.012300', total: '0.013300', refunded: '0.187700' });
    const b = await run('quote', { text: 'q', cost: '5.00' });
    expect(b.res.body.data.cost).toMatchObject({ agentFee: '0.200000', refunded: '0.000000' });
    const c = await run('quote', { text: 'q', cost: '0' });
    expect(c.res.body.data.cost).toMatchObject({ agentFee: '0.000000', total: '0.001000', refunded: '0.200000' });
    expect(c.res.body.data.refund.amount).toBe('0.200000');
    const before = await charges();
    const bad = await run('quote', { text: 'q', cost: '-1' });
    expect(bad.res.status).toBe(502);
    expect(bad.res.body.error.details.agentError).toMatch(/cost/);
    expect(await charges()).toBe(before);
    expect(await invariants()).toEqual([]);
  });

  it('a failed refund (its transfer reverted) stays owed to the payer and is not sent again by a stray job', async () => {
    const { res, client } = await run('quote', { text: 'q', cost: '0.1' });
    const id = res.body.data.refund.refundId;
    await ds.query(`UPDATE refunds SET status = 'failed', error = 'reverted' WHERE id = $1`, [id]);
    expect(await payable(client.address)).toBe(100_000n);
    expect(await api.app.get(ProcessRefund).execute(id)).toBe('skipped');
    expect(await invariants()).toEqual([]);
  });
});
