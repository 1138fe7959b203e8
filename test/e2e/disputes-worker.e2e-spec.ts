import { Queue } from 'bullmq';
import { Interface, InterfaceAbi, Wallet } from 'ethers';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { DISPUTE_CHECKS, RESOLVED_BY_TIMEOUT } from '@app/disputes';
import { Accounts, LEDGER_CHECKS, LedgerService, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS, PLATFORM_FEE } from '@app/payments';
import { jobId, QUEUES, redisConnectionOptions } from '@app/queues';
import { startChain, LocalChain } from '../../scripts/local-chain';
import { TestAgentServer } from '../support/agent-server';
import { ApiHarness, startApi } from '../support/api-harness';
import { evmEnv } from '../support/evm-env';
import { agentPayload, capabilityPayload, REGISTRATION_FEE_MICROS } from '../support/factories';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { newWallet, signAuth, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';
import { paidExecute as paidExecuteAs, PaidCall } from '../support/disputes';

const ADMIN = { 'X-Admin-Key': 'test-admin-key-0123456789' };
/** The capability's per-request price: agent fee 1.20, so cut 0.06 (5%), earnings 1.14. */
const AGENT_FEE = 1_200_000n;
const EARNINGS = 1_140_000n;
const PRICE = { model: 'per-request', basePrice: '1.20', currency: 'USDC' };

/** What the platform did about one dispute, read from its rows (money to the micro-USDC). */
async function disputeTrail(ds: DataSource, disputeId: string) {
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

async function invariantViolations(ds: DataSource) {
  return (
    await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS, ...DISPUTE_CHECKS])
  ).results.filter((r) => r.violations.length);
}

const txStatus = async (ds: DataSource, id: string): Promise<string> =>
  (await ds.query(`SELECT status FROM transactions WHERE id = $1`, [id]))[0].status;
const refundStatus = async (ds: DataSource, id: string): Promise<string | undefined> =>
  (await ds.query(`SELECT status FROM refunds WHERE id = $1`, [id]))[0]?.status;

/**
 * Disputes end to end with the worker process (dist/apps/worker/main.js): a client_wins refund
 * sent on chain by the worker (anvil, `evm` mode), the response deadline resolving an unanswered
 * dispute by itself (and leaving an answered one alone), and the sweeper resolving a dispute whose
 * delayed job Redis lost, exactly once.
 */
describe('disputes on anvil: client_wins refunded on chain by the worker (e2e)', () => {
  let chain: LocalChain;
  let api: ApiHarness;
  let ds: DataSource;
  let translator: TestAgentServer;
  let worker: RunningProcess | undefined;
  let platformStart: bigint;

  beforeAll(async () => {
    chain = await startChain();
    translator = await new TestAgentServer().start();
    api = await startApi({
      ...evmEnv(chain),
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      MAINTENANCE_INTERVAL_MS: '500',
    });
    ds = api.app.get(DataSource);
    platformStart = await chain.balanceOf(chain.platform.address);
    worker = startProcess(builtApp('worker'), api.env);
  }, 60_000);
  afterAll(async () => {
    if (worker) {
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
    await api?.close();
    await translator?.stop();
    await chain?.stop();
  });

  /** A header paying `amount` on the local chain, from a wallet minted exactly that much. */
  const pay = async (amount: bigint, w = newWallet()) => {
    await chain.mint(w.address, amount);
    return x402Header(w, { amount, payTo: chain.platform.address, asset: chain.usdcAddress });
  };

  it('a payer files, the admin resolves client_wins, the worker sends the agent fee back on chain: balances to the micro-USDC, I8 against the chain, disputes invariants', async () => {
    const owner = newWallet();
    const reg = await pay(REGISTRATION_FEE_MICROS, owner);
    const registered = await api.request('POST', '/api/v1/agents', {
      body: agentPayload(owner, {
        endpoints: { execution: translator.url },
        capabilities: [capabilityPayload({ pricing: PRICE })],
      }),
      headers: { [reg.name]: reg.value },
    });
    expect(registered.status).toBe(201);
    const agentId = registered.body.data.id as string;

    // A real execute, its payment settled on chain before the agent ran.
    const payer = newWallet();
    const paid = await pay(PLATFORM_FEE + AGENT_FEE, payer);
    const exec = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'bonjour' } },
      headers: { [paid.name]: paid.value },
    });
    expect(exec.status).toBe(200);
    expect(exec.body.data.settlement).toEqual({
      status: 'settled',
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      livemode: false,
    });
    const transactionId = exec.body.data.transactionId as string;
    expect(transactionId).toMatch(/^tx_/);
    expect(await chain.balanceOf(payer.address)).toBe(0n);

    // The payer disputes it with the header that paid it; the earnings (still in escrow: a new agent is Standard tier) are frozen.
    const filed = await api.request('POST', '/api/v1/disputes', {
      body: { transactionId, reason: 'The translation was wrong', evidence: 'expected "hello"' },
      headers: { [paid.name]: paid.value },
    });
    expect(filed.status).toBe(201);
    const disputeId = filed.body.data.disputeId as string;
    expect(filed.body.data).toMatchObject({ transactionId, status: 'pending' });
    expect((await api.request('GET', `/api/v1/disputes/${disputeId}`)).body.data).toMatchObject({
      status: 'pending',
      clientId: payer.address.toLowerCase(),
      agentId,
      frozenAmount: '1.140000',
      advancedAmount: '0.000000',
      resolution: null,
    });
    expect(await txStatus(ds, transactionId)).toBe('disputed');
    expect((await api.request('GET', `/api/v1/payments/balance/${agentId}`)).body.data).toMatchObject({
      available: '0.000000',
      pending: '0.000000',
      totalDisputed: '1.140000',
    });

    const resolved = await api.request('POST', `/api/v1/admin/disputes/${disputeId}/resolve`, {
      body: { resolution: 'client_wins', note: 'output did not match' },
      headers: ADMIN,
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({
      status: 'resolved',
      resolution: {
        outcome: 'client_wins',
        note: 'output did not match',
        refundAmount: '1.200000',
        releasedAmount: '0.000000',
        resolvedBy: 'admin',
      },
    });

    // The worker pays the refund with an on-chain USDC transfer from the hot wallet.
    const refundId = `rfd_${disputeId.slice(4)}`;
    await waitFor(
      async () => (await refundStatus(ds, refundId)) === 'completed',
      'the dispute refund sent by the worker',
      30_000,
    );
    expect(await chain.balanceOf(payer.address)).toBe(AGENT_FEE); // exactly the agent fee came back; the platform fee did not
    const [refund] = await ds.query(
      `SELECT r.amount::text, r.reason, r.wallet, r.transaction_id, r.tx_hash, c.status AS chain_status FROM refunds r JOIN chain_txs c ON c.id = r.chain_tx_id WHERE r.id = $1`,
      [refundId],
    );
    expect(refund).toMatchObject({
      amount: AGENT_FEE.toString(),
      reason: 'dispute',
      wallet: payer.address.toLowerCase(),
      transaction_id: transactionId,
      chain_status: 'mined',
    });
    const receipt = await chain.provider.getTransactionReceipt(refund.tx_hash);
    expect(receipt?.status).toBe(1);
    const erc20 = new Interface(chain.abi as InterfaceAbi);
    const transfers = receipt!.logs
      .filter((l) => l.address.toLowerCase() === chain.usdcAddress.toLowerCase())
      .map((l) => erc20.parseLog(l))
      .filter((e) => e?.name === 'Transfer')
      .map((e) => ({
        from: (e!.args[0] as string).toLowerCase(),
        to: (e!.args[1] as string).toLowerCase(),
        value: e!.args[2] as bigint,
      }));
    expect(transfers).toEqual([
      { from: chain.platform.address.toLowerCase(), to: payer.address.toLowerCase(), value: AGENT_FEE },
    ]);

    expect(await txStatus(ds, transactionId)).toBe('refunded');
    const trail = await disputeTrail(ds, disputeId);
    expect(trail.dispute).toMatchObject({ status: 'resolved', frozen: EARNINGS.toString(), frozen_from: 'escrow' });
    expect(trail.reputation).toEqual([
      { type: 'dispute.filed', delta: -5 },
      { type: 'dispute.client_wins', delta: -5 },
    ]);
    expect(trail.postings.map((p) => p.code)).toEqual(['dispute.frozen', 'dispute.refunded', 'refund.paid']);
    expect(trail.refunds).toHaveLength(1);
    expect((await api.request('GET', `/api/v1/reputation/${agentId}`)).body.data).toMatchObject({
      score: 41,
      breakdown: { disputesWon: 0, disputesLost: 1 },
    });
    expect((await api.request('GET', `/api/v1/payments/balance/${agentId}`)).body.data).toMatchObject({
      available: '0.000000',
      pending: '0.000000',
      totalDisputed: '0.000000',
    });
    const ledger = api.app.get(LedgerService);
    expect(await ledger.balance(ds.manager, Accounts.clientRefundPayable(payer.address).code)).toBe(0n);
    expect(await ledger.balance(ds.manager, Accounts.agentFrozen(agentId).code)).toBe(0n);

    // I8 against the chain: what reached the platform wallet, net, is what the ledger says came in from the chain.
    const kept = REGISTRATION_FEE_MICROS + PLATFORM_FEE + AGENT_FEE - AGENT_FEE;
    expect(await chain.balanceOf(chain.platform.address)).toBe(platformStart + kept);
    const [world] = await ds.query(`SELECT (-balance)::text AS net FROM ledger_accounts WHERE code = 'world:chain'`);
    expect(BigInt(world.net)).toBe(kept);
    expect(await invariantViolations(ds)).toEqual([]);
    const check = startProcess(builtApp('ops'), { DATABASE_URL: api.databaseUrl, LOG_LEVEL: 'silent' }, [
      'ledger:check',
    ]);
    expect(await check.exited).toBe(0);
  });
  it('the money pump on chain: the actor who pays its own agent, withdraws and disputes gets less USDC out of the hot wallet than it put in', async () => {
    // Agent A (wallet aw) at a Trusted score, so earnings are available at once; client wallet cw is the same actor's.
    const [aw, cw] = [newWallet(), newWallet()];
    const fee = 2_000_000n; // 2.00: cut 0.10, earnings 1.90
    const reg = await pay(REGISTRATION_FEE_MICROS, aw);
    const registered = await api.request('POST', '/api/v1/agents', {
      body: agentPayload(aw, {
        endpoints: { execution: translator.url },
        capabilities: [capabilityPayload({ pricing: { ...PRICE, basePrice: '2.00' } })],
      }),
      headers: { [reg.name]: reg.value },
    });
    const agentId = registered.body.data.id as string;
    await ds.query(`UPDATE agents SET reputation_score = 65 WHERE id = $1`, [agentId]);
    const hotBefore = await chain.balanceOf(chain.platform.address);
    const paid = await pay(PLATFORM_FEE + fee, cw);
    const exec = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'pump' } },
      headers: { [paid.name]: paid.value },
    });
    expect(exec.status).toBe(200);
    const sink = newWallet().address; // where A withdraws to
    const wd = await api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId, amount: '1.900000', destinationWallet: sink },
      headers: await walletHeaders(aw, agentId, 'POST /api/v1/payments/withdraw'),
    });
    expect(wd.status).toBe(201);
    await waitFor(
      async () =>
        (await ds.query(`SELECT status FROM withdrawals WHERE id = $1`, [wd.body.data.withdrawalId]))[0].status ===
        'completed',
      'the withdrawal',
    );
    const filed = await api.request('POST', '/api/v1/disputes', {
      body: { transactionId: exec.body.data.transactionId, reason: 'never delivered' },
      headers: {
        'X-Client-Wallet': cw.address,
        'X-Client-Signature': await signAuth(cw, exec.body.data.transactionId),
      },
    });
    expect(filed.status).toBe(201);
    const disputeId = filed.body.data.disputeId as string;
    const resolved = await api.request('POST', `/api/v1/admin/disputes/${disputeId}/resolve`, {
      body: { resolution: 'client_wins' },
      headers: ADMIN,
    });
    expect(resolved.body.data).toMatchObject({
      resolution: { refundAmount: '2.000000' },
      refundedAmount: '0.100000',
      outstandingAmount: '1.900000',
      advancedAmount: '0.000000',
    });
    await waitFor(
      async () => (await refundStatus(ds, `rfd_${disputeId.slice(4)}`)) === 'completed',
      'the refund of the cut',
    );
    // Out of the hot wallet to the actor: 1.80 (1.90 less the 0.10 fee) + 0.10. In: 2.001 (and 0.10 to register).
    // Before the fix the refund was 2.00: 3.80 out for 2.101 in.
    const out = (await chain.balanceOf(sink)) + (await chain.balanceOf(cw.address));
    expect(out).toBe(1_900_000n);
    expect(out).toBeLessThan(PLATFORM_FEE + fee + REGISTRATION_FEE_MICROS);
    expect(await chain.balanceOf(chain.platform.address)).toBe(hotBefore + PLATFORM_FEE + fee - out);
    expect(await invariantViolations(ds)).toEqual([]);
  });
});

describe('disputes: the response deadline resolves unanswered disputes through the worker (e2e)', () => {
  const WINDOW_S = 2;
  let api: ApiHarness;
  let ds: DataSource;
  let translator: TestAgentServer;
  let worker: RunningProcess | undefined;
  let moneyQueue: Queue;
  let maintenance: Queue;
  let ts = Date.now();

  /** Starts a worker and waits for its heartbeat: it has booted, and its boot sweep has begun. */
  const startWorker = async (env: Record<string, string>) => {
    worker = startProcess(builtApp('worker'), { ...api.env, ...env });
    await waitFor(
      async () => (await api.request('GET', '/api/v1/health/worker')).status === 200,
      'the worker heartbeat',
    );
  };
  const stopWorker = async () => {
    if (!worker) return;
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    worker = undefined;
  };

  beforeAll(async () => {
    translator = await new TestAgentServer().start();
    // No sweep but the boot tick (a 10-minute interval) until the Redis-loss tests start their own worker.
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      DISPUTE_RESPONSE_WINDOW_S: String(WINDOW_S),
      MAINTENANCE_INTERVAL_MS: '600000',
      WORKER_HEARTBEAT_MS: '200',
    });
    ds = api.app.get(DataSource);
    const connection = redisConnectionOptions(api.config.redisUrl);
    moneyQueue = new Queue(QUEUES.money, { connection, prefix: api.config.queuePrefix });
    maintenance = new Queue(QUEUES.maintenance, { connection, prefix: api.config.queuePrefix });
    await Promise.all([moneyQueue.waitUntilReady(), maintenance.waitUntilReady()]);
  });
  afterAll(async () => {
    if (worker) {
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
    await moneyQueue?.close();
    await maintenance?.close();
    await api?.close();
    await translator?.stop();
  });

  async function agent(): Promise<{ id: string; wallet: Wallet }> {
    const wallet = newWallet();
    const h = await x402Header(wallet, { amount: REGISTRATION_FEE_MICROS, payTo: api.config.platformWallet });
    const res = await api.request('POST', '/api/v1/agents', {
      body: agentPayload(wallet, {
        endpoints: { execution: translator.url },
        capabilities: [capabilityPayload({ pricing: PRICE })],
      }),
      headers: { [h.name]: h.value },
    });
    expect(res.status).toBe(201);
    return { id: res.body.data.id, wallet };
  }

  const paidExecute = (agentId: string) => paidExecuteAs(api, agentId, newWallet(), PLATFORM_FEE + AGENT_FEE);

  async function file(call: PaidCall, headers: Record<string, string> = { [call.payment.name]: call.payment.value }) {
    const res = await api.request('POST', '/api/v1/disputes', {
      body: { transactionId: call.transactionId, reason: 'No translation came back' },
      headers,
    });
    expect(res.status).toBe(201);
    return { id: res.body.data.disputeId as string, respondBy: new Date(res.body.data.respondBy) };
  }

  const getDispute = async (id: string) => (await api.request('GET', `/api/v1/disputes/${id}`)).body.data;
  const timeoutJobs = async (
    disputeId: string,
    states: ('completed' | 'failed' | 'delayed' | 'waiting' | 'active' | 'prioritized')[],
  ) => (await moneyQueue.getJobs(states)).filter((j) => j.name === 'dispute.timeout' && j.data.disputeId === disputeId);

  /** The worker's own proof that its sweeper ran: each tick enqueues `auth-messages.prune` with the tick's slot in the id. */
  async function sweeperTicked(pastSlot: number): Promise<void> {
    await waitFor(async () => {
      const jobs = await maintenance.getJobs(['completed']);
      return jobs.some((j) => Number(/-s(\d+)$/.exec(j.id ?? '')?.[1] ?? -1) > pastSlot);
    }, `a sweep after slot ${pastSlot}`);
  }

  /** Redis loses every key of this deployment (queues, delayed jobs, heartbeats), as in a restart without persistence. */
  async function redisLosesEverything(o: { workerRunning: boolean }): Promise<void> {
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
  async function expectResolvedByTimeout(disputeId: string, call: PaidCall, agentId: string) {
    const d = await getDispute(disputeId);
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

  it('the delayed job alone (no periodic sweep) resolves an unanswered dispute client_wins at its deadline; an answered one stays responded', async () => {
    await startWorker({});
    const answeredAgent = await agent();
    const silentAgent = await agent();
    const answeredCall = await paidExecute(answeredAgent.id);
    const silentCall = await paidExecute(silentAgent.id);

    // Filed first, so its deadline comes first; answered by the agent's wallet right away.
    const answered = await file(answeredCall);
    const reply = await api.request('POST', `/api/v1/disputes/${answered.id}/respond`, {
      body: { response: 'The translation was delivered', evidence: 'output hash in the platform evidence' },
      headers: await walletHeaders(
        answeredAgent.wallet,
        answeredAgent.id,
        `POST /api/v1/disputes/${answered.id}/respond`,
        ++ts,
      ),
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      disputeId: answered.id,
      status: 'responded',
      agentResponse: 'The translation was delivered',
    });
    // The other payer proves it with a wallet signature over the transaction id.
    const silent = await file(silentCall, {
      'X-Client-Wallet': silentCall.payer.address,
      'X-Client-Signature': await signAuth(silentCall.payer, silentCall.transactionId),
    });
    expect(silent.respondBy.getTime() - Date.now()).toBeLessThanOrEqual(WINDOW_S * 1000);
    expect((await getDispute(silent.id)).status).toBe('pending');
    expect((await timeoutJobs(silent.id, ['delayed'])).map((j) => j.id)).toEqual([jobId('dispute.timeout', silent.id)]);

    // The answered dispute's deadline job runs and does nothing.
    const [answeredJob] = await waitFor(async () => {
      const jobs = await timeoutJobs(answered.id, ['completed']);
      return jobs.length ? jobs : undefined;
    }, "the answered dispute's deadline job");
    expect(answeredJob.id).toBe(jobId('dispute.timeout', answered.id));
    expect(answeredJob.returnvalue).toBe(false);

    // The unanswered one resolves by itself, and its refund is paid by the worker.
    await waitFor(
      async () => (await refundStatus(ds, `rfd_${silent.id.slice(4)}`)) === 'completed',
      'the timed-out dispute refunded',
      20_000,
    );
    const [silentJob] = await timeoutJobs(silent.id, ['completed']);
    expect(silentJob).toMatchObject({ id: jobId('dispute.timeout', silent.id), returnvalue: true });
    await expectResolvedByTimeout(silent.id, silentCall, silentAgent.id);

    // The answered one: still responded, its money still frozen, no refund, no outcome on the agent's reputation.
    expect(Date.now()).toBeGreaterThan(answered.respondBy.getTime());
    expect(await getDispute(answered.id)).toMatchObject({
      status: 'responded',
      resolution: null,
      resolvedAt: null,
      agentResponse: 'The translation was delivered',
    });
    const open = await disputeTrail(ds, answered.id);
    expect(open.reputation).toEqual([{ type: 'dispute.filed', delta: -5 }]);
    expect(open.refunds).toEqual([]);
    expect(open.resolvedEvents).toEqual([]);
    expect(open.postings.map((p) => p.code)).toEqual(['dispute.frozen']);
    expect((await api.request('GET', `/api/v1/reputation/${answeredAgent.id}`)).body.data).toMatchObject({
      score: 46,
      breakdown: { disputesWon: 0, disputesLost: 0 },
    });
    expect(await txStatus(ds, answeredCall.transactionId)).toBe('disputed');
    expect((await api.request('GET', `/api/v1/payments/balance/${answeredAgent.id}`)).body.data).toMatchObject({
      totalDisputed: '1.140000',
      available: '0.000000',
      pending: '0.000000',
    });
    // Responding again after the window is refused; the admin can still decide it.
    const late = await api.request('POST', `/api/v1/disputes/${answered.id}/respond`, {
      body: { response: 'again' },
      headers: await walletHeaders(
        answeredAgent.wallet,
        answeredAgent.id,
        `POST /api/v1/disputes/${answered.id}/respond`,
        ++ts,
      ),
    });
    expect(late.status).toBe(409);
    expect(await invariantViolations(ds)).toEqual([]);
    await stopWorker();
  });

  it('Redis loses the delayed job while no worker runs: the sweeper of the next worker resolves the dispute after its window, exactly once', async () => {
    const a = await agent();
    const call = await paidExecute(a.id);
    const d = await file(call);
    expect((await timeoutJobs(d.id, ['delayed'])).map((j) => j.id)).toEqual([jobId('dispute.timeout', d.id)]);
    await redisLosesEverything({ workerRunning: false });
    expect(await moneyQueue.getJob(jobId('dispute.timeout', d.id))).toBeUndefined();
    expect((await getDispute(d.id)).status).toBe('pending');

    const intervalMs = 300;
    await startWorker({ MAINTENANCE_INTERVAL_MS: String(intervalMs) });
    await waitFor(
      async () => (await refundStatus(ds, `rfd_${d.id.slice(4)}`)) === 'completed',
      'the dispute resolved by the sweeper and refunded',
      20_000,
    );
    await expectResolvedByTimeout(d.id, call, a.id);
    // It was the sweeper's job (its id carries the sweep slot), not the lost delayed one.
    const ran = await timeoutJobs(d.id, ['completed']);
    expect(ran.length).toBeGreaterThanOrEqual(1);
    expect(ran.every((j) => /^dispute_timeout-dsp_[A-Za-z0-9_-]+-s\d+$/.test(j.id!))).toBe(true);
    expect(ran.filter((j) => j.returnvalue === true)).toHaveLength(1);

    // More sweeps come and go, and a stale copy of the lost delayed job shows up (Redis restored from an old snapshot): nothing changes.
    await sweeperTicked(Math.floor(Date.now() / intervalMs) + 1);
    const stale = await moneyQueue.add(
      'dispute.timeout',
      { disputeId: d.id },
      { jobId: jobId('dispute.timeout', d.id) },
    );
    await waitFor(async () => (await stale.getState()) === 'completed', 'the stale deadline job');
    expect((await moneyQueue.getJob(stale.id!))?.returnvalue).toBe(false);
    await waitFor(
      async () => (await timeoutJobs(d.id, ['waiting', 'active', 'delayed', 'prioritized'])).length === 0,
      'no deadline job left for the dispute',
    );
    expect((await timeoutJobs(d.id, ['completed'])).filter((j) => j.returnvalue === true)).toHaveLength(1);
    await expectResolvedByTimeout(d.id, call, a.id);
    expect(await invariantViolations(ds)).toEqual([]);
  });

  it('Redis loses every key while the worker runs: the running sweeper still resolves the dispute after its window, exactly once', async () => {
    const intervalMs = 300;
    if (!worker) await startWorker({ MAINTENANCE_INTERVAL_MS: String(intervalMs) }); // else the sweeping worker of the previous test keeps running
    const a = await agent();
    const call = await paidExecute(a.id);
    const d = await file(call);
    await redisLosesEverything({ workerRunning: true });
    expect(Date.now()).toBeLessThan(d.respondBy.getTime()); // lost before the window closed: only a sweep can resolve it
    expect(await moneyQueue.getJob(jobId('dispute.timeout', d.id))).toBeUndefined();

    await waitFor(
      async () => (await refundStatus(ds, `rfd_${d.id.slice(4)}`)) === 'completed',
      'the dispute resolved by the sweeper and refunded',
      20_000,
    );
    await expectResolvedByTimeout(d.id, call, a.id);
    await sweeperTicked(Math.floor(Date.now() / intervalMs) + 1);
    await waitFor(
      async () => (await timeoutJobs(d.id, ['waiting', 'active', 'delayed', 'prioritized'])).length === 0,
      'no deadline job left for the dispute',
    );
    const ran = await timeoutJobs(d.id, ['completed']);
    expect(ran.every((j) => /-s\d+$/.test(j.id!))).toBe(true);
    expect(ran.filter((j) => j.returnvalue === true)).toHaveLength(1);
    await expectResolvedByTimeout(d.id, call, a.id);
    expect(await invariantViolations(ds)).toEqual([]);
    await stopWorker();
  });
});
