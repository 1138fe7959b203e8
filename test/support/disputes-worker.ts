import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { DISPUTE_CHECKS, RESOLVED_BY_TIMEOUT } from '@app/disputes';
import { Accounts, LEDGER_CHECKS, LedgerService, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { redisConnectionOptions } from '@app/queues';
import { ApiHarness } from './api-harness';
import { PaidCall } from './disputes';

export const ADMIN = { 'X-Admin-Key': 'test-admin-key-0123456789' };
/** The capability's per-request price: agent fee 1.20, so cut 0.06 (5%), earnings 1.14. */
export const AGENT_FEE = 1_200_000n;
export const EARNINGS = 1_140_000n;
export const PRICE = { model: 'per-request', basePrice: '1.20', currency: 'USDC' };

/** What the platform did about one dispute, read from its rows (money to the micro-USDC). */
export async function disputeTrail(ds: DataSource, disputeId: string) {
  const refundId = `rfd_${disputeId.slice(4)}`;
  const [d] = await ds.query(
    `SELECT status, resolution, resolved_at, respond_by, frozen_amount::text AS frozen, frozen_from FROM disputes WHERE id = $1`,
    [disputeId],
  );
  const reputation: { type: string; delta: number }[] = await ds.query(
    `SELECT type, delta FROM reputation_events WHERE ref_id = $1 ORDER BY id`,
    [disputeId],
  );
  const refunds: {
    id: string;
    status: string;
    amount: string;
    reason: string;
    wallet: string;
    tx_hash: string | null;
    transaction_id: string;
  }[] = await ds.query(
    `SELECT id, status, amount::text, reason, wallet, tx_hash, transaction_id FROM refunds WHERE id = $1 OR transaction_id = (SELECT transaction_id FROM disputes WHERE id = $2)`,
    [refundId, disputeId],
  );
  const resolvedEvents: { data: Record<string, unknown> }[] = await ds.query(
    `SELECT data FROM outbox_events WHERE type = 'dispute.resolved' AND data->>'disputeId' = $1`,
    [disputeId],
  );
  const postings: { code: string; ref_id: string }[] = await ds.query(
    `SELECT code, ref_id FROM ledger_transactions WHERE ref_id = ANY($1) AND code IN ('dispute.frozen', 'dispute.refunded', 'dispute.released', 'refund.paid') ORDER BY code`,
    [[disputeId, refundId]],
  );
  return { dispute: d, refundId, reputation, refunds, resolvedEvents, postings };
}

export async function invariantViolations(ds: DataSource) {
  return (
    await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS, ...DISPUTE_CHECKS])
  ).results.filter((r) => r.violations.length);
}

export const txStatus = async (ds: DataSource, id: string): Promise<string> =>
  (await ds.query(`SELECT status FROM transactions WHERE id = $1`, [id]))[0].status;
export const refundStatus = async (ds: DataSource, id: string): Promise<string | undefined> =>
  (await ds.query(`SELECT status FROM refunds WHERE id = $1`, [id]))[0]?.status;

/** Redis loses every key of this deployment (queues, delayed jobs, heartbeats), as in a restart without persistence. */
export async function redisLosesEverything(api: ApiHarness, o: { workerRunning: boolean }): Promise<void> {
  const redis = new Redis(redisConnectionOptions(api.config.redisUrl));
  try {
    const keys = await redis.keys(`${api.config.queuePrefix}:*`);
    expect(keys.length).toBeGreaterThan(0);
    await redis.del(...keys);
    // A running worker writes again at once (heartbeat, the outbox relay's event.fanout): only then can keys come back.
    if (!o.workerRunning) expect(await redis.keys(`${api.config.queuePrefix}:*`)).toEqual([]);
  } finally {
    redis.disconnect();
  }
}

/** An automatic client_wins: resolved by the deadline, the whole agent fee refunded (paid), the reputation and event once each. */
export async function expectResolvedByTimeout(api: ApiHarness, disputeId: string, call: PaidCall, agentId: string) {
  const ds = api.app.get(DataSource);
  const d = (await api.request('GET', `/api/v1/disputes/${disputeId}`)).body.data;
  expect(d).toMatchObject({
    status: 'resolved',
    resolution: {
      outcome: 'client_wins',
      refundAmount: '1.200000',
      releasedAmount: '0.000000',
      resolvedBy: RESOLVED_BY_TIMEOUT,
    },
  });
  expect(new Date(d.resolvedAt).getTime()).toBeGreaterThanOrEqual(new Date(d.respondBy).getTime()); // never before the window closed
  const trail = await disputeTrail(ds, disputeId);
  expect(trail.dispute).toMatchObject({ status: 'resolved', frozen: EARNINGS.toString() });
  expect(trail.reputation).toEqual([
    { type: 'dispute.filed', delta: -5 },
    { type: 'dispute.client_wins', delta: -5 },
  ]);
  expect(trail.refunds).toEqual([
    {
      id: trail.refundId,
      status: 'completed',
      amount: AGENT_FEE.toString(),
      reason: 'dispute',
      wallet: call.payer.address.toLowerCase(),
      tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      transaction_id: call.transactionId,
    },
  ]);
  expect(trail.resolvedEvents).toEqual([{ data: { disputeId, resolution: 'client_wins', reputationDelta: -5 } }]);
  expect(trail.postings.map((p) => p.code)).toEqual(['dispute.frozen', 'dispute.refunded', 'refund.paid']);
  expect(await txStatus(ds, call.transactionId)).toBe('refunded');
  const ledger = api.app.get(LedgerService);
  expect(await ledger.balance(ds.manager, Accounts.clientRefundPayable(call.payer.address).code)).toBe(0n);
  expect(await ledger.balance(ds.manager, Accounts.agentFrozen(agentId).code)).toBe(0n);
  expect((await api.request('GET', `/api/v1/payments/balance/${agentId}`)).body.data).toMatchObject({
    available: '0.000000',
    pending: '0.000000',
    totalDisputed: '0.000000',
  });
  // 50 at registration, +1 for the execution, -5 filed, -5 lost.
  expect((await api.request('GET', `/api/v1/reputation/${agentId}`)).body.data).toMatchObject({
    score: 41,
    breakdown: { disputesWon: 0, disputesLost: 1 },
  });
}
