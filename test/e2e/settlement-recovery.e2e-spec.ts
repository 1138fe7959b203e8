import { DataSource } from 'typeorm';
import { FaultInjector } from '@app/common';
import { FinishSettlement } from '@app/execution';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { SweepRegistry } from '@app/queues';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { TestFacilitator } from '../support/facilitator-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';
import { DEV_PLATFORM_WALLET } from '@app/config';
import { TEST_SEEDS } from '../support/evm-env';

const PRICE = 11_000n;

/** An api settling through a facilitator on loopback, an agent registered on it, and a way to stop all. */
async function facilitatorStack(env: Record<string, string> = {}) {
  const facilitator = await new TestFacilitator().start();
  const agentServer = await new TestAgentServer().start();
  const api = await startApi({
    SETTLEMENT_MODE: 'facilitator',
    PLATFORM_WALLET: DEV_PLATFORM_WALLET,
    ...TEST_SEEDS,
    FACILITATOR_URL: facilitator.url,
    OUTBOUND_ALLOW_HTTP: 'true',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    ...env,
  });
  const res = await registerAgent(api, newWallet(), {
    endpoints: { execution: agentServer.url },
    capabilities: [capabilityPayload()],
  });
  expect(res.status).toBe(201);
  const stop = async () => {
    await api.close();
    await agentServer.stop();
    await facilitator.stop();
  };
  return { facilitator, api, ds: api.app.get(DataSource), agentId: res.body.data.id as string, stop };
}

/**
 * Issue 11, defect 2: a settlement outside Postgres (here a facilitator) that succeeded, followed
 * by a charge that did not happen. The payment is recorded settled before the charge, so the
 * sweeper finds it and charges it exactly once.
 */
describe('a settled payment whose charge failed is charged once by the sweeper (e2e)', () => {
  let facilitator: TestFacilitator;
  let api: ApiHarness;
  let ds: DataSource;
  let agentId: string;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ facilitator, api, ds, agentId, stop } = await facilitatorStack({ SETTLEMENT_LEASE_MS: '300' }));
  });
  afterAll(() => stop());

  const rows = async () =>
    (
      await ds.query(
        `SELECT (SELECT count(*) FROM transactions)::int AS charges, (SELECT count(*) FROM escrow_holds)::int AS holds,
                (SELECT count(*) FROM ledger_transactions WHERE code LIKE 'execution%')::int AS postings`,
      )
    )[0] as { charges: number; holds: number; postings: number };

  it('within two sweeps: one transaction, one escrow hold, one settlement call, invariants clean, output released', async () => {
    const h = await x402Header(newWallet(), { amount: PRICE, payTo: api.config.platformWallet });
    const headers = { [h.name]: h.value };
    const before = await rows();
    api.app.get(FaultInjector).arm('charge.after-settle');
    const res = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'hola' } },
      headers,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'completed', settlement: { status: 'settlement_pending' } });
    expect(res.body.data.output).toBeUndefined();
    const id = res.body.data.requestId;
    const [payment] = await ds.query(
      `SELECT p.id, p.status, p.ref_id FROM payments p JOIN executions e ON e.payment_id = p.id WHERE e.id = $1`,
      [id],
    );
    expect(payment).toMatchObject({ status: 'settled', ref_id: null });
    expect(await rows()).toEqual(before);

    const settle = api.app
      .get(SweepRegistry)
      .all()
      .find((s) => s.job === 'payment.settle')!;
    const sweep = async () => {
      const due = await settle.due();
      for (const work of due) await api.app.get(FinishSettlement).execute(work.id);
      return due.map((w) => w.id);
    };
    const deadline = Date.now() + 5_000;
    let first: string[] = [];
    while (!first.includes(payment.id) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      first = await sweep();
    }
    expect(first).toContain(payment.id);
    expect(await sweep()).not.toContain(payment.id);

    expect(await rows()).toEqual({
      charges: before.charges + 1,
      holds: before.holds + 1,
      postings: expect.any(Number),
    });
    expect(
      facilitator.calls.filter(
        (c) => c.path === '/settle' && c.body.paymentPayload.payload.authorization.nonce === h.nonce,
      ),
    ).toHaveLength(1);
    expect(
      (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS])).results.filter(
        (r) => r.violations.length,
      ),
    ).toEqual([]);
    const read = await api.request('GET', `/api/v1/execute/${id}`, { headers });
    expect(read.body.data).toMatchObject({
      status: 'completed',
      settlement: { status: 'settled' },
      transactionId: expect.stringMatching(/^tx_/),
      output: expect.any(Object),
    });
  });
});

/**
 * Issue 16, defect 4: an authorization whose settlement failed and whose validBefore has passed
 * can never move money. It is not retried for ever: the payment is released, the execution's
 * settlement is `settlement_expired` (final), nothing is charged and the output stays withheld.
 */
describe('facilitator: a failed settlement whose authorization expired unused ends (e2e)', () => {
  let facilitator: TestFacilitator;
  let api: ApiHarness;
  let ds: DataSource;
  let agentId: string;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ facilitator, api, ds, agentId, stop } = await facilitatorStack());
  });
  afterAll(() => stop());

  it('is released once past validBefore: settlement_expired, not charged, output withheld, no longer due, never sent again', async () => {
    facilitator.settle = 'fail';
    const h = await x402Header(newWallet(), { amount: PRICE, payTo: api.config.platformWallet });
    const headers = { [h.name]: h.value };
    const res = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'hola' } },
      headers,
    });
    const id = res.body.data?.requestId ?? res.body.error?.details?.requestId;
    const [payment] = await ds.query(
      `SELECT p.id, p.status FROM payments p JOIN executions e ON e.payment_id = p.id WHERE e.id = $1`,
      [id],
    );
    expect(payment.status).toBe('settlement_failed');
    const finish = api.app.get(FinishSettlement);
    const due = async () =>
      (
        await api.app
          .get(SweepRegistry)
          .all()
          .find((s) => s.job === 'payment.settle')!
          .due()
      ).map((w) => w.id);
    // Still valid: a due retry is sent again and fails again. (A second in the past: the sweeper
    // compares with the process's clock, which has milliseconds where Postgres has microseconds.)
    await ds.query(`UPDATE payments SET next_attempt_at = now() - interval '1 second' WHERE id = $1`, [payment.id]);
    expect(await due()).toContain(payment.id);
    await finish.execute(payment.id);
    const sends = () =>
      facilitator.calls.filter(
        (c) => c.path === '/settle' && c.body.paymentPayload.payload.authorization.nonce === h.nonce,
      ).length;
    expect(sends()).toBe(2);
    // Past validBefore (and the margin for a lagging chain clock): released for good.
    await ds.query(
      `UPDATE payments SET next_attempt_at = now() - interval '1 second', valid_before = extract(epoch FROM now())::bigint - 601 WHERE id = $1`,
      [payment.id],
    );
    expect(await finish.execute(payment.id)).toBe('settlement_expired');
    const [after] = await ds.query(
      `SELECT p.status, p.next_attempt_at, e.settlement_status, e.transaction_id FROM payments p JOIN executions e ON e.payment_id = p.id WHERE e.id = $1`,
      [id],
    );
    expect(after).toEqual({
      status: 'released',
      next_attempt_at: null,
      settlement_status: 'settlement_expired',
      transaction_id: null,
    });
    expect(sends()).toBe(2);
    expect(await due()).not.toContain(payment.id);
    expect(await finish.execute(payment.id)).toBe('settlement_expired'); // a duplicate job changes nothing
    expect(sends()).toBe(2);
    const read = await api.request('GET', `/api/v1/execute/${id}`, { headers });
    expect(read.body.data).toMatchObject({
      status: 'completed',
      settlement: { status: 'settlement_expired', txHash: null },
    });
    expect(read.body.data.output).toBeUndefined();
    expect((await ds.query(`SELECT count(*)::int AS n FROM transactions`))[0].n).toBe(0);
    expect(
      (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS])).results.filter(
        (r) => r.violations.length,
      ),
    ).toEqual([]);
  });
});
