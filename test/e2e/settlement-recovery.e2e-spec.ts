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

const PRICE = 11_000n;

/**
 * Issue 11, defect 2: a settlement outside Postgres (here a facilitator) that succeeded, followed
 * by a charge that did not happen. The payment is recorded settled before the charge, so the
 * sweeper finds it and charges it exactly once.
 */
describe('a settled payment whose charge failed is charged once by the sweeper (e2e)', () => {
  let facilitator: TestFacilitator;
  let agentServer: TestAgentServer;
  let api: ApiHarness;
  let ds: DataSource;
  let agentId: string;

  beforeAll(async () => {
    facilitator = await new TestFacilitator().start();
    agentServer = await new TestAgentServer().start();
    api = await startApi({
      SETTLEMENT_MODE: 'facilitator',
      FACILITATOR_URL: facilitator.url,
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      SETTLEMENT_LEASE_MS: '300',
    });
    ds = api.app.get(DataSource);
    const res = await registerAgent(api, newWallet(), { endpoints: { execution: agentServer.url }, capabilities: [capabilityPayload()] });
    expect(res.status).toBe(201);
    agentId = res.body.data.id;
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
    await facilitator.stop();
  });

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
    const res = await api.request('POST', '/api/v1/execute', { body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'hola' } }, headers });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'completed', settlement: { status: 'settlement_pending' } });
    expect(res.body.data.output).toBeUndefined();
    const id = res.body.data.requestId;
    const [payment] = await ds.query(`SELECT p.id, p.status, p.ref_id FROM payments p JOIN executions e ON e.payment_id = p.id WHERE e.id = $1`, [id]);
    expect(payment).toMatchObject({ status: 'settled', ref_id: null });
    expect(await rows()).toEqual(before);

    const settle = api.app.get(SweepRegistry).all().find((s) => s.job === 'payment.settle')!;
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

    expect(await rows()).toEqual({ charges: before.charges + 1, holds: before.holds + 1, postings: expect.any(Number) });
    expect(facilitator.calls.filter((c) => c.path === '/settle' && c.body.paymentPayload.payload.authorization.nonce === h.nonce)).toHaveLength(1);
    expect((await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS])).results.filter((r) => r.violations.length)).toEqual([]);
    const read = await api.request('GET', `/api/v1/execute/${id}`, { headers });
    expect(read.body.data).toMatchObject({ status: 'completed', settlement: { status: 'settled' }, transactionId: expect.stringMatching(/^tx_/), output: expect.any(Object) });
  });
});
