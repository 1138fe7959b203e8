import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { FixedClock } from '@app/common';
import { DISPUTE_CHECKS, ResolveOverdueDispute } from '@app/disputes';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS, ProcessRefund, ProcessWithdrawal } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { clientSignature, fileDispute, paidExecute } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { matureSpend } from '../support/payer-spend';
import { newWallet, walletHeaders } from '../support/wallets';

const PLATFORM_FEE = 1_000n;
const PRICE = 100_000_000n; // 100.00: the attack is linear in the price
const HOUR_MS = 3_600_000;

/**
 * The dispute money pump (issue 28, item 1), played by one actor who owns agent A (wallet AW) and
 * client wallet CW: CW pays A 100.001, A withdraws, CW disputes, A never answers, the deadline
 * resolves client_wins. Before: the platform advanced the withdrawn 95.00 and refunded 100.00, the
 * actor netted +94.80 a round. Now nothing is advanced: with the rolling reserve on (the default) A
 * cannot withdraw what can still be disputed; with it off (a test deployment) the withdrawn part is
 * A's debt to CW, refunded only from A's later earnings. Either way the actor gets out less than it
 * put in, and I12 (no payout on an agent's account beyond what came in for it) holds.
 */
describe('Market integrity: the dispute money pump (e2e)', () => {
  let agentServer: TestAgentServer;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
  });
  afterAll(async () => {
    await agentServer.stop();
  });

  /** One round of the attack against an api with `env`; answers what the actor's wallets put in and got out (micro-USDC). */
  async function pump(api: ApiHarness, clock: FixedClock) {
    const ds = api.app.get(DataSource);
    const [aw, cw] = [newWallet(), newWallet()];
    const registered = await registerAgent(api, aw, {
      endpoints: { execution: agentServer.url },
      capabilities: [
        capabilityPayload({ pricing: { model: 'per-request', basePrice: '100.000000', currency: 'USDC' } }),
      ],
    });
    expect(registered.status).toBe(201);
    const agentId = registered.body.data.id as string;
    // Trusted: earnings are released at once (buying this by self-dealing is refused, below).
    await ds.query(`UPDATE agents SET reputation_score = 65 WHERE id = $1`, [agentId]);
    const call = await paidExecute(api, agentId, cw, PLATFORM_FEE + PRICE);
    const withdrawal = await api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId, amount: '95.000000', destinationWallet: aw.address },
      headers: await walletHeaders(aw, agentId, 'POST /api/v1/payments/withdraw'),
    });
    if (withdrawal.status === 201)
      expect(await api.app.get(ProcessWithdrawal).execute(withdrawal.body.data.withdrawalId)).toBe('completed');
    const filed = await fileDispute(api, call, {}, await clientSignature(cw, call.transactionId));
    expect(filed.status).toBe(201);
    // A never answers: the deadline resolves it client_wins.
    clock.advance(49 * HOUR_MS);
    expect(await api.app.get(ResolveOverdueDispute).execute(filed.body.data.disputeId)).toBe(true);
    for (const { id } of await ds.query(`SELECT id FROM refunds WHERE wallet = $1 AND status = 'pending'`, [
      cw.address.toLowerCase(),
    ])) {
      expect(await api.app.get(ProcessRefund).execute(id)).toBe('completed');
    }
    const [money] = await ds.query(
      `SELECT (SELECT coalesce(sum(value), 0) FROM payments WHERE lower(payer) = ANY($1) AND status = 'settled')::text AS "in",
              (SELECT coalesce(sum(net_amount), 0) FROM withdrawals WHERE agent_id = $2 AND status = 'completed')::text AS withdrawn,
              (SELECT coalesce(sum(amount), 0) FROM refunds WHERE wallet = ANY($1) AND status = 'completed')::text AS refunded`,
      [[aw.address.toLowerCase(), cw.address.toLowerCase()], agentId],
    );
    const dispute = (await api.request('GET', `/api/v1/disputes/${filed.body.data.disputeId}`)).body.data;
    const report = await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS, ...DISPUTE_CHECKS]);
    expect(report.results.filter((r) => r.violations.length)).toEqual([]);
    return {
      withdrawal,
      dispute,
      paidIn: BigInt(money.in),
      out: BigInt(money.withdrawn) + BigInt(money.refunded),
      withdrawn: BigInt(money.withdrawn),
      refunded: BigInt(money.refunded),
    };
  }

  it('with the rolling reserve on (the default): the withdrawal is refused, saying how much is reserved and until when; the refund is what A still held', async () => {
    const clock = new FixedClock(new Date());
    const api = await startApi(
      { OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true', WITHDRAWAL_RESERVE: 'on' },
      { clock },
    );
    try {
      const r = await pump(api, clock);
      expect([r.withdrawal.status, r.withdrawal.body.error.code]).toEqual([409, 'INSUFFICIENT_BALANCE']);
      expect(r.withdrawal.body.error.details).toMatchObject({
        available: '95.000000',
        reserved: '95.000000',
        withdrawable: '0.000000',
        requested: '95.000000',
      });
      expect(Date.parse(r.withdrawal.body.error.details.reservedUntil)).toBeGreaterThan(Date.now() + 6 * 24 * HOUR_MS);
      expect(r.dispute).toMatchObject({
        frozenAmount: '95.000000',
        refundedAmount: '100.000000',
        outstandingAmount: '0.000000',
      });
      expect({ withdrawn: r.withdrawn, refunded: r.refunded }).toEqual({ withdrawn: 0n, refunded: PRICE });
      // In: 0.10 registration + 100.001; out: 100.00. The round costs the actor 0.101.
      expect(r.paidIn - r.out).toBe(101_000n);
    } finally {
      await api.close();
    }
  });

  it("with the reserve off: A withdraws, but the withdrawn 95.00 is its debt to CW, not the platform's advance; the actor is out 0.201", async () => {
    const clock = new FixedClock(new Date());
    const api = await startApi(
      { OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true', WITHDRAWAL_RESERVE: 'off' },
      { clock },
    );
    try {
      const r = await pump(api, clock);
      expect(r.withdrawal.status).toBe(201);
      expect(r.dispute).toMatchObject({
        frozenAmount: '0.000000',
        advancedAmount: '0.000000',
        refundedAmount: '5.000000',
        outstandingAmount: '95.000000',
      });
      // Before the fix: 94.90 withdrawn (95.00 less the fee) + 100.00 refunded = 194.90 out for 100.101 in (+94.80).
      expect({ withdrawn: r.withdrawn, refunded: r.refunded }).toEqual({
        withdrawn: 94_900_000n,
        refunded: 5_000_000n,
      });
      expect(r.out).toBeLessThan(r.paidIn);
      expect(r.paidIn - r.out).toBe(201_000n);
    } finally {
      await api.close();
    }
  });
});

/**
 * The reserve itself: new agents cannot withdraw earnings inside their filing window; the balance
 * shows it; an established record (enough settled volume from funded payers, old enough) lifts it;
 * executions the agent's own wallet paid do not count towards that record.
 */
describe('Market integrity: the rolling reserve (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      WITHDRAWAL_RESERVE: 'on',
      RESERVE_MIN_VOLUME_MICRO: '2000000',
      RESERVE_MIN_AGE_S: '3600',
      RESERVE_MIN_FUNDED_PAYERS: '2',
    });
    ds = api.app.get(DataSource);
  });
  /** Moves an agent's transactions `ms` into the past (as if they were charged then). */
  const age = (agentId: string, ms: number) =>
    ds.query(
      `UPDATE transactions SET completed_at = completed_at - make_interval(secs => $2), created_at = created_at - make_interval(secs => $2) WHERE providing_agent_id = $1`,
      [agentId, ms / 1000],
    );
  const completedAt = async (agentId: string) =>
    (await ds.query(`SELECT max(completed_at) AS t FROM transactions WHERE providing_agent_id = $1`, [agentId]))[0]
      .t as Date;
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  /** An agent of `owner` at 90 (earnings released at once) with one capability at `basePrice`. */
  async function instantAgent(owner: Wallet, basePrice: string): Promise<string> {
    const res = await registerAgent(api, owner, {
      endpoints: { execution: agentServer.url },
      capabilities: [capabilityPayload({ pricing: { model: 'per-request', basePrice, currency: 'USDC' } })],
    });
    await ds.query(`UPDATE agents SET reputation_score = 90 WHERE id = $1`, [res.body.data.id]);
    return res.body.data.id as string;
  }
  const withdraw = async (owner: Wallet, agentId: string, amount: string) =>
    api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId, amount, destinationWallet: owner.address },
      headers: await walletHeaders(owner, agentId, 'POST /api/v1/payments/withdraw'),
    });

  it('reserves earnings still inside their filing window until the agent has an established record from other payers', async () => {
    const owner = newWallet();
    const agentId = await instantAgent(owner, '1.000000');
    // Three runs paid by the owner's own wallet: earnings, but no record.
    for (let i = 0; i < 3; i++) await paidExecute(api, agentId, owner, PLATFORM_FEE + 1_000_000n);
    const balance = (await api.request('GET', `/api/v1/payments/balance/${agentId}`)).body.data;
    expect(balance).toMatchObject({ available: '2.850000', reserved: '2.850000' });
    const closes = new Date((await completedAt(agentId)).getTime() + 7 * 24 * HOUR_MS).toISOString();
    expect(balance.reservedUntil).toBe(closes);
    const refused = await withdraw(owner, agentId, '1.000000');
    expect([refused.status, refused.body.error.code, refused.body.error.details.reserved]).toEqual([
      409,
      'INSUFFICIENT_BALANCE',
      '2.850000',
    ]);
    expect(refused.body.error.details.reservedUntil).toBe(closes);
    expect(refused.body.error.message).toMatch(/2\.850000 of the available balance is reserved/);
    // Three runs from two other payers, each of which paid 1.00 to another owner's agent a filing window
    // ago (funded): each counts up to that, 2.00 from two funded payers, a record, but not an hour old yet.
    const [p1, p2] = [newWallet(), newWallet()];
    const elsewhere = await instantAgent(newWallet(), '1.000000');
    for (const p of [p1, p2]) await paidExecute(api, elsewhere, p, PLATFORM_FEE + 1_000_000n);
    await matureSpend(api, [p1, p2]);
    for (const p of [p1, p2, p1]) await paidExecute(api, agentId, p, PLATFORM_FEE + 1_000_000n);
    expect((await withdraw(owner, agentId, '1.000000')).status).toBe(409);
    await age(agentId, HOUR_MS + 1_000);
    expect((await api.request('GET', `/api/v1/payments/balance/${agentId}`)).body.data).toMatchObject({
      available: '5.700000',
      reserved: '0.000000',
      reservedUntil: null,
    });
    expect((await withdraw(owner, agentId, '5.700000')).status).toBe(201);
  });

  it('a withdrawal may take what is past the reserve; nothing is reserved once the filing window has passed', async () => {
    const owner = newWallet();
    const agentId = await instantAgent(owner, '2.000000');
    await paidExecute(api, agentId, newWallet(), PLATFORM_FEE + 2_000_000n);
    await age(agentId, 7 * 24 * HOUR_MS + 1_000);
    await paidExecute(api, agentId, newWallet(), PLATFORM_FEE + 2_000_000n);
    // The first run's 1.90 left its window; the second's 1.90 is reserved.
    expect((await api.request('GET', `/api/v1/payments/balance/${agentId}`)).body.data).toMatchObject({
      available: '3.800000',
      reserved: '1.900000',
    });
    expect((await withdraw(owner, agentId, '1.900001')).status).toBe(409);
    expect((await withdraw(owner, agentId, '1.900000')).status).toBe(201);
  });
});
