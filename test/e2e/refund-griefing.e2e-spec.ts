import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { FinishChain } from '@app/chains';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS, ProcessRefund, RefundsService } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { ADMIN } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

/**
 * Gas and dust griefing (issue 28, item 5; resolutions §5, §6). Before: a chain root whose agent
 * failed was refunded in full (in evm mode a settlement and a refund on chain at the platform's
 * cost, per request); every refund was a transfer however small; a reverted refund stayed failed.
 * Now the failed root keeps the platform fee, a refund below the dust floor waits for the payer's
 * next one (one transfer pays both), and a failed refund is sent again (backoff, or an admin).
 */
describe('Refunds that cost more than they return (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  let agentId: string;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    ds = api.app.get(DataSource);
    const res = await registerAgent(api, newWallet(), {
      endpoints: { execution: agentServer.url },
      capabilities: [
        capabilityPayload({ inputSchema: { type: 'object' } }),
        capabilityPayload({
          id: 'quote',
          name: 'quote',
          inputSchema: { type: 'object' },
          pricing: { model: 'dynamic', basePrice: '0.01', maxPrice: '0.2', currency: 'USDC' },
        }),
      ],
    });
    agentId = res.body.data.id;
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  const execute = async (payer: Wallet, amount: bigint, body: Record<string, unknown>) => {
    const pay = await x402Header(payer, { amount, payTo: api.config.platformWallet });
    return api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, ...body },
      headers: { [pay.name]: pay.value },
    });
  };
  const refundsOf = async (payer: Wallet) =>
    (await ds.query(
      `SELECT id, amount::text, status, carried_by AS "carriedBy", payout_amount::text AS "payoutAmount" FROM refunds WHERE wallet = $1 ORDER BY created_at`,
      [payer.address.toLowerCase()],
    )) as { id: string; amount: string; status: string; carriedBy: string | null; payoutAmount: string | null }[];
  const revenue = async () =>
    BigInt((await ds.query(`SELECT sum(balance)::text AS b FROM ledger_accounts WHERE kind = 'revenue'`))[0].b);
  const invariants = async () =>
    (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS])).results.filter(
      (r) => r.violations.length,
    );

  it('a chain root whose agent fails keeps the platform fee; the rest of the payment is refunded', async () => {
    const payer = newWallet();
    // Root cost 0.011 (0.001 fee + 0.010) plus a 0.05 budget.
    const res = await execute(payer, 61_000n, {
      capabilityId: 'translate',
      input: { text: 'x', mode: 'fail' },
      chain: { budget: '0.05' },
    });
    expect([res.status, res.body.error.code]).toEqual([502, 'EXECUTION_FAILED']);
    const [chain] = await ds.query(`SELECT id FROM chains WHERE root_wallet = $1`, [payer.address.toLowerCase()]);
    const before = await revenue();
    expect(await api.app.get(FinishChain).execute(chain.id)).toBe(true);
    expect(await revenue()).toBe(before + 1_000n);
    expect(await refundsOf(payer)).toEqual([expect.objectContaining({ amount: '60000', status: 'pending' })]);
    expect((await api.request('GET', `/api/v1/chains/${chain.id}`)).body.data).toMatchObject({ status: 'failed' });
    expect(await invariants()).toEqual([]);
  });

  it('a refund below the dust floor is held (owed, not sent); the next refund above it carries it in one transfer', async () => {
    const payer = newWallet();
    // Dynamic price capped at 0.20: a cost of 0.1999 leaves 0.0001 to refund, below the 0.01 floor.
    const small = await execute(payer, 201_000n, { capabilityId: 'quote', input: { text: 'q', cost: '0.1999' } });
    expect(small.body.data.refund).toMatchObject({ amount: '0.000100', status: 'held' });
    const second = await execute(payer, 201_000n, { capabilityId: 'quote', input: { text: 'q', cost: '0.1995' } });
    expect(second.body.data.refund).toMatchObject({ amount: '0.000500', status: 'held' });
    const [a, b] = await refundsOf(payer);
    // Nothing sends a held refund, even a stray job.
    expect(await api.app.get(ProcessRefund).execute(a.id)).toBe('skipped');
    expect(await api.app.get(RefundsService).dueForProcessing()).not.toContain(a.id);
    const big = await execute(payer, 201_000n, { capabilityId: 'quote', input: { text: 'q', cost: '0.05' } });
    expect(big.body.data.refund).toMatchObject({ amount: '0.150000', status: 'pending' });
    const carrier = big.body.data.refund.refundId as string;
    expect(await refundsOf(payer)).toEqual([
      { ...a, carriedBy: carrier },
      { ...b, carriedBy: carrier },
      { id: carrier, amount: '150000', status: 'pending', carriedBy: null, payoutAmount: '150600' },
    ]);
    expect(await api.app.get(ProcessRefund).execute(carrier)).toBe('completed');
    const paid = await refundsOf(payer);
    expect(paid.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
    const hashes = await ds.query(`SELECT DISTINCT tx_hash FROM refunds WHERE wallet = $1`, [
      payer.address.toLowerCase(),
    ]);
    expect(hashes).toHaveLength(1);
    expect(await invariants()).toEqual([]);
  });

  it('a held refund is sent alone only on request (an admin), never by the worker', async () => {
    const payer = newWallet();
    const small = await execute(payer, 201_000n, { capabilityId: 'quote', input: { text: 'q', cost: '0.1990' } });
    const id = small.body.data.refund.refundId as string;
    expect(await api.app.get(RefundsService).dueForProcessing()).not.toContain(id);
    const sent = await api.request('POST', `/api/v1/admin/refunds/${id}/retry`, { headers: ADMIN });
    expect([sent.status, sent.body.data]).toEqual([
      200,
      { refundId: id, amount: '0.001000', status: 'pending', txHash: null, livemode: false },
    ]);
    expect(await api.app.get(ProcessRefund).execute(id)).toBe('completed');
    expect((await refundsOf(payer)).map((r) => [r.status, r.payoutAmount])).toEqual([['completed', '1000']]);
    expect(await invariants()).toEqual([]);
  });

  it('a failed refund is sent again when its retry time comes, or at once by an admin; never left failed', async () => {
    const payer = newWallet();
    const runs = [
      await execute(payer, 201_000n, { capabilityId: 'quote', input: { text: 'q', cost: '0.05' } }),
      await execute(payer, 201_000n, { capabilityId: 'quote', input: { text: 'q', cost: '0.06' } }),
    ];
    const [first, second] = runs.map((r) => r.body.data.refund.refundId as string);
    // What the payout sender leaves when a transfer reverted: failed, still owed, with its retry time.
    await ds.query(
      `UPDATE refunds SET status = 'failed', error = 'transfer 0xabc reverted', retry_at = now() - interval '1 second', attempts = 1 WHERE id = $1`,
      [first],
    );
    await ds.query(
      `UPDATE refunds SET status = 'failed', error = 'transfer 0xdef reverted', retry_at = now() + interval '1 hour', attempts = 1 WHERE id = $1`,
      [second],
    );
    const due = await api.app.get(RefundsService).dueForProcessing();
    const refunds = api.app.get(ProcessRefund);
    expect(due).toContain(first);
    expect(due).not.toContain(second);
    expect(await refunds.execute(first)).toBe('completed');

    expect((await api.request('POST', `/api/v1/admin/refunds/${second}/retry`)).status).toBe(401);
    const retried = await api.request('POST', `/api/v1/admin/refunds/${second}/retry`, { headers: ADMIN });
    expect([retried.status, retried.body.data]).toEqual([
      200,
      { refundId: second, amount: '0.140000', status: 'pending', txHash: null, livemode: false },
    ]);
    expect(await refunds.execute(second)).toBe('completed');
    const again = await api.request('POST', `/api/v1/admin/refunds/${second}/retry`, { headers: ADMIN });
    expect([again.status, again.body.error.code]).toEqual([409, 'INVALID_STATE']);
    expect(
      (await api.request('POST', `/api/v1/admin/refunds/rfd_doesnotexist0000/retry`, { headers: ADMIN })).status,
    ).toBe(404);
    expect((await api.request('POST', `/api/v1/admin/refunds/not-an-id/retry`, { headers: ADMIN })).status).toBe(400);
    expect((await refundsOf(payer)).map((r) => r.status)).toEqual(['completed', 'completed']);
    expect(await invariants()).toEqual([]);
  });
});
