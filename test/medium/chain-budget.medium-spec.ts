import { randomBytes, randomUUID } from 'node:crypto';
import { AppException, newId } from '@app/common';
import {
  CHAIN_CHECKS,
  ChainBudget,
  ChainClosed,
  ChainsRepository,
  FinishChain,
  NewNode,
  ReleaseStaleNode,
} from '@app/chains';
import { TransactionRunner } from '@app/database';
import { Accounts, LEDGER_CHECKS, LedgerService, runInvariantChecks } from '@app/ledger';
import { Domain, startDomain } from '../support/medium';

/** The chain budget's money against real Postgres: funding, parallel reservations (G14), refunded nodes, the final refund. */
/** The root's end at `at(0)`, its answer handing the root's caller a token valid 10 s. */
const heldRootEnd = (at: (ms: number) => Date) => ({
  cost: 0n,
  transactionId: newId('tx'),
  executionTimeMs: 5,
  completedAt: at(0),
  holdUntil: at(10_000),
});

describe('chain budget (medium)', () => {
  let domain: Domain;
  let budget: ChainBudget;
  let repo: ChainsRepository;
  let tx: TransactionRunner;
  let ledger: LedgerService;

  beforeAll(async () => {
    domain = await startDomain();
    [budget, repo, tx, ledger] = [
      domain.get(ChainBudget),
      domain.get(ChainsRepository),
      domain.get(TransactionRunner),
      domain.get(LedgerService),
    ];
  });
  afterAll(() => domain.close());

  const wallet = `0x${randomBytes(20).toString('hex')}`;
  const balanceOf = (code: string) => ledger.balance(domain.ds.manager, code);
  const availableOf = async (id: string) => (await repo.find(id))!.available;

  /** A funded chain whose root node holds `rootCost`; `budget` is what is left for sub-calls. */
  async function openChain(o: { budget: bigint; rootCost: bigint; expiresInMs?: number }) {
    const id = randomUUID();
    const root: NewNode = {
      executionId: newId('req'),
      chainId: id,
      parentExecutionId: null,
      agentId: randomUUID(),
      capabilityId: 'orchestrate',
      depth: 0,
      spanId: randomBytes(8).toString('hex'),
      reserved: o.rootCost,
      startedAt: new Date(),
    };
    const now = new Date();
    await tx.pipelined(async (sql) => {
      await repo.insert(sql, {
        id,
        rootExecutionId: root.executionId,
        rootAgentId: root.agentId,
        rootWallet: wallet,
        paymentId: newId('pay'),
        budget: o.budget,
        maxDepth: 3,
        traceId: randomBytes(16).toString('hex'),
        startedAt: now,
        expiresAt: new Date(now.getTime() + (o.expiresInMs ?? 300_000)),
      });
      await budget.fund(sql, id, o.budget + o.rootCost, 'pay_test');
      await budget.reserve(sql, root, now);
    });
    return { id, root };
  }
  const child = (chainId: string, parent: string, reserved: bigint): NewNode => ({
    executionId: newId('req'),
    chainId,
    parentExecutionId: parent,
    agentId: randomUUID(),
    capabilityId: 'translate',
    depth: 1,
    spanId: randomBytes(8).toString('hex'),
    reserved,
    startedAt: new Date(),
  });

  it('G14: 100 parallel reservations of c on budget B: exactly floor(B/c) succeed, the rest BUDGET_EXCEEDED, the budget never below 0', async () => {
    const [B, c] = [1_000_000n, 11_000n]; // 1.00 budget, 0.011 per sub-call: 90 fit
    const { id, root } = await openChain({ budget: B, rootCost: 11_000n });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 100 }, () =>
        tx.pipelined((sql) => budget.reserve(sql, child(id, root.executionId, c), new Date())),
      ),
    );
    const ok = outcomes.filter((o) => o.status === 'fulfilled').length;
    expect(ok).toBe(Number(B / c));
    const refused = outcomes
      .filter((o): o is PromiseRejectedResult => o.status === 'rejected')
      .map((o) => o.reason as AppException);
    expect(refused.every((e) => e.code === 'BUDGET_EXCEEDED')).toBe(true);
    expect(refused[0].details).toEqual({ estimated: '0.011000', remaining: '0.010000', shortfall: '0.001000' });
    expect(await availableOf(id)).toBe(B - BigInt(ok) * c);
    expect(await balanceOf(Accounts.chainBudget(id).code)).toBe(B + 11_000n); // reserved, not moved: the ledger moves only what is charged
    const [{ running }] = await domain.ds.query(`SELECT running FROM chains WHERE id = $1`, [id]);
    expect(running).toBe(ok + 1);
    expect((await runInvariantChecks(domain.ds.manager, [...LEDGER_CHECKS, ...CHAIN_CHECKS])).ok).toBe(true);
  });

  it("a refunded node returns its reservation; the chain ends once the root has ended and nothing runs, refunding all that is left once but the failed root's platform fee", async () => {
    const { id, root } = await openChain({ budget: 500_000n, rootCost: 21_000n });
    const a = child(id, root.executionId, 100_000n);
    expect(await tx.pipelined((sql) => budget.reserve(sql, a, new Date()))).toBe(400_000n);
    expect(await availableOf(id)).toBe(400_000n);
    expect(
      await tx.pipelined((sql) => budget.release(sql, a, { executionTimeMs: 5, completedAt: new Date() })),
    ).toMatchObject({ finishable: false, closesAt: null }); // the root still runs
    expect(await availableOf(id)).toBe(500_000n);
    await expect(
      tx.pipelined((sql) => budget.release(sql, a, { executionTimeMs: 5, completedAt: new Date() })),
    ).rejects.toThrow(/not claimed/); // once
    expect(await domain.get(FinishChain).execute(id)).toBe(false); // the root runs
    expect(
      await tx.pipelined((sql) => budget.release(sql, root, { executionTimeMs: 9, completedAt: new Date() })),
    ).toMatchObject({ finishable: true, closesAt: null });
    // After the root ended, no node enters, even with a token still in its 30 s.
    await expect(
      tx.pipelined((sql) => budget.reserve(sql, child(id, root.executionId, 1_000n), new Date())),
    ).rejects.toBeInstanceOf(ChainClosed);
    expect(await domain.get(FinishChain).execute(id)).toBe(true);
    expect(await domain.get(FinishChain).execute(id)).toBe(false);
    const chain = (await repo.find(id))!;
    // The root ended uncharged (failed): it keeps the platform fee, 0.001.
    expect(chain).toMatchObject({ status: 'failed', refunded: 520_000n, running: 0, available: 0n, rootEnded: true });
    const [refund] = await domain.ds.query(`SELECT wallet, amount, reason, execution_id FROM refunds WHERE id = $1`, [
      chain.refundId,
    ]);
    expect(refund).toEqual({ wallet, amount: '520000', reason: 'chain_unspent', execution_id: root.executionId });
    expect(await balanceOf(Accounts.chainBudget(id).code)).toBe(0n);
    expect((await runInvariantChecks(domain.ds.manager, [...LEDGER_CHECKS, ...CHAIN_CHECKS])).ok).toBe(true);
  });

  it('takes no node into a chain past its time limit, nor under a caller whose node has ended', async () => {
    const expired = await openChain({ budget: 100_000n, rootCost: 11_000n, expiresInMs: 50 });
    // A node asked for 60 ms after the chain opened (the time is the caller's): past its 50 ms limit.
    const later = new Date(Date.now() + 60);
    await expect(
      tx.pipelined((sql) => budget.reserve(sql, child(expired.id, expired.root.executionId, 1_000n), later)),
    ).rejects.toBeInstanceOf(ChainClosed);
    const live = await openChain({ budget: 100_000n, rootCost: 11_000n });
    const a = child(live.id, live.root.executionId, 10_000n);
    await tx.pipelined((sql) => budget.reserve(sql, a, new Date()));
    await tx.pipelined((sql) => budget.release(sql, a, { executionTimeMs: 1, completedAt: new Date() }));
    await expect(
      tx.pipelined((sql) => budget.reserve(sql, { ...child(live.id, a.executionId, 1_000n), depth: 2 }, new Date())),
    ).rejects.toBeInstanceOf(ChainClosed);
    expect(await availableOf(live.id)).toBe(100_000n);
  });

  it('returns the reservation of a call whose process died (never written), once; the sweep finds only such calls', async () => {
    const { id, root } = await openChain({ budget: 100_000n, rootCost: 11_000n });
    const dead = child(id, root.executionId, 30_000n);
    await tx.pipelined((sql) => budget.reserve(sql, dead, new Date()));
    const later = new Date(Date.now() + 1_000);
    expect(await repo.staleNodes(later)).toContain(dead.executionId);
    expect(await repo.staleNodes(later)).not.toContain(root.executionId); // the root's execution row is the sweeper's to recover
    expect(await repo.staleNodes(new Date(Date.now() - 60_000))).not.toContain(dead.executionId);
    const release = domain.get(ReleaseStaleNode);
    expect(await release.execute(dead.executionId)).toBe(true);
    expect(await release.execute(dead.executionId)).toBe(false);
    expect((await repo.node(dead.executionId))!.status).toBe('refunded');
    expect(await availableOf(id)).toBe(100_000n);
    expect(await repo.staleNodes(later)).not.toContain(dead.executionId);
    expect((await runInvariantChecks(domain.ds.manager, [...LEDGER_CHECKS, ...CHAIN_CHECKS])).ok).toBe(true);
  });

  it("a chain held open by its root caller's token: only that caller's calls enter after the root ended, and it ends once the hold passes", async () => {
    const { id, root } = await openChain({ budget: 200_000n, rootCost: 21_000n });
    const t0 = Date.now();
    const at = (ms: number) => new Date(t0 + ms);
    // The root's success hands its caller a token valid 10 s: written with the root's end.
    const rootEnd = heldRootEnd(at);
    expect(await tx.pipelined((sql) => budget.complete(sql, root.executionId, rootEnd))).toMatchObject({
      finishable: false,
      closesAt: at(10_000),
    });
    // An agent's token (its node, the root, has ended) opens nothing; the root caller's does, while held.
    await expect(
      tx.pipelined((sql) => budget.reserve(sql, child(id, root.executionId, 1_000n), at(1_000))),
    ).rejects.toBeInstanceOf(ChainClosed);
    const call = child(id, root.executionId, 11_000n);
    expect(await tx.pipelined((sql) => budget.reserve(sql, call, at(1_000), true))).toBe(210_000n); // the root cost nothing here
    expect(await domain.get(FinishChain).execute(id)).toBe(false); // a call runs, and the hold is valid
    // Its success moves the hold to its fresh token's expiry.
    const callEnd = { cost: 11_000n, transactionId: newId('tx'), executionTimeMs: 5, completedAt: at(2_000) };
    expect(
      await tx.pipelined((sql) => budget.complete(sql, call.executionId, { ...callEnd, holdUntil: at(12_000) })),
    ).toMatchObject({ finishable: false, closesAt: at(12_000) });
    expect(await domain.get(FinishChain).execute(id)).toBe(false); // nothing runs, but the hold is valid
    expect(await repo.finishable(at(11_000))).not.toContain(id);
    expect(await repo.finishable(at(12_000))).toContain(id);
    // Past the hold, the root caller's token opens nothing either.
    await expect(
      tx.pipelined((sql) => budget.reserve(sql, child(id, root.executionId, 1_000n), at(12_001), true)),
    ).rejects.toBeInstanceOf(ChainClosed);
    // Its caller gives the hold up: the chain can be finished now.
    expect(await repo.releaseHold(id, new Date())).toBe(true);
    expect(await domain.get(FinishChain).execute(id)).toBe(true);
    expect(await repo.find(id)).toMatchObject({ status: 'completed', running: 0, available: 0n });
  });

  it("once the root has ended, only nodes the root's caller started (and those below them) still call; a released hold extends no more", async () => {
    const { id, root } = await openChain({ budget: 300_000n, rootCost: 21_000n });
    const t0 = Date.now();
    const at = (ms: number) => new Date(t0 + ms);
    // The root's own sub-call, still running when the root ends.
    const early = child(id, root.executionId, 11_000n);
    await tx.pipelined((sql) => budget.reserve(sql, early, at(0)));
    const rootEnd = heldRootEnd(at);
    expect(await tx.pipelined((sql) => budget.complete(sql, root.executionId, rootEnd))).toMatchObject({
      finishable: false,
      closesAt: null, // the root's sub-call still runs
      heldUntil: at(10_000),
    });
    // Its calls are refused now that the root has ended; a call of the root's caller, and one below it, are not.
    await expect(
      tx.pipelined((sql) => budget.reserve(sql, { ...child(id, early.executionId, 1_000n), depth: 2 }, at(1_000))),
    ).rejects.toBeInstanceOf(ChainClosed);
    const byClient = child(id, root.executionId, 11_000n);
    await tx.pipelined((sql) => budget.reserve(sql, byClient, at(1_000), true));
    const below = { ...child(id, byClient.executionId, 1_000n), depth: 2 };
    await tx.pipelined((sql) => budget.reserve(sql, below, at(1_000)));
    // The caller gives its tokens up: a call still running ends without extending the hold.
    expect(await repo.releaseHold(id, at(2_000))).toBe(false); // nodes still run
    const end = { cost: 0n, transactionId: newId('tx'), executionTimeMs: 5, completedAt: at(3_000) };
    expect(
      await tx.pipelined((sql) => budget.complete(sql, byClient.executionId, { ...end, holdUntil: at(33_000) })),
    ).toMatchObject({ finishable: false, heldUntil: null });
    await expect(
      tx.pipelined((sql) => budget.reserve(sql, child(id, root.executionId, 1_000n), at(3_000), true)),
    ).rejects.toBeInstanceOf(ChainClosed);
    for (const n of [below, early])
      await tx.pipelined((sql) => budget.release(sql, n, { executionTimeMs: 1, completedAt: at(4_000) }));
    expect(await domain.get(FinishChain).execute(id)).toBe(true);
  });
});
