import { CheckInvariants, InvariantCheck, LEDGER_CHECKS, PruneInvariantHistory } from '@app/ledger';
import { jobId, JobProducer } from '@app/queues';
import { startApi, ApiHarness } from '../support/api-harness';
import { ADMIN } from '../support/disputes';

const iso = (d: Date | string) => new Date(d).toISOString();
const failing = (id: string, violation: string): InvariantCheck => ({
  id,
  description: 'a check made to fail',
  run: async () => [violation],
});

/** The operator's reads of the platform's health: invariant status and history, queue depths. */
describe('Admin reads: invariants and queues (e2e)', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());
  const get = (path: string, headers: Record<string, string> = ADMIN) => api.request('GET', path, { headers });

  it('GET /admin/invariants: the current result and its history, newest first (changes, and hourly otherwise)', async () => {
    const none = (await get('/api/v1/admin/invariants')).body.data;
    expect(none).toEqual({ current: null, history: [], total: 0 });
    const check = api.app.get(CheckInvariants);
    const t0 = Date.now();
    const at = (ms: number) => new Date(t0 + ms);
    // A result 8 days old (pruned below), then: pass, pass (same result within the hour: not kept),
    // fail (a change), fail on another invariant (a change), pass (a change), pass two hours later (hourly).
    await check.execute([failing('I9', 'old violation')], at(-8 * 86_400_000));
    await check.execute(LEDGER_CHECKS, at(0));
    await check.execute(LEDGER_CHECKS, at(60_000));
    await check.execute([...LEDGER_CHECKS, failing('X1', 'made up: 1 != 2')], at(120_000));
    await check.execute([...LEDGER_CHECKS, failing('X2', 'made up too')], at(180_000));
    await check.execute(LEDGER_CHECKS, at(240_000));
    await check.execute(LEDGER_CHECKS, at(300_000));
    await check.execute(LEDGER_CHECKS, at(240_000 + 2 * 3_600_000));

    const res = await get('/api/v1/admin/invariants');
    expect(res.status).toBe(200);
    const pass = (ms: number) => ({ ok: true, failed: [], violations: [], checkedAt: iso(at(ms)) });
    const fail = (id: string, v: string, ms: number) => ({
      ok: false,
      failed: [id],
      violations: [{ id, violations: [v] }],
      checkedAt: iso(at(ms)),
    });
    const history = [
      pass(240_000 + 2 * 3_600_000),
      pass(240_000),
      fail('X2', 'made up too', 180_000),
      fail('X1', 'made up: 1 != 2', 120_000),
      pass(0),
      fail('I9', 'old violation', -8 * 86_400_000),
    ];
    expect(res.body.data).toEqual({
      current: pass(240_000 + 2 * 3_600_000),
      history: history.map((h) => ({ id: expect.stringMatching(/^\d+$/), ...h })),
      total: 6,
    });
    const ids = res.body.data.history.map((h: { id: string }) => Number(h.id));
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);

    const page = (await get('/api/v1/admin/invariants?limit=2&offset=2')).body.data;
    expect(page.history.map(({ id: _id, ...h }: { id: string }) => h)).toEqual(history.slice(2, 4));
    expect(page.total).toBe(6);

    // The worker's prune: results older than 7 days go.
    expect(await api.app.get(PruneInvariantHistory).execute()).toEqual({ deleted: 1 });
    const pruned = (await get('/api/v1/admin/invariants')).body.data;
    expect([pruned.total, pruned.history.at(-1)]).toEqual([5, { id: expect.any(String), ...pass(0) }]);
  });

  it('GET /admin/queues: every queue, its counts and the age of its oldest waiting job', async () => {
    const producer = api.app.get(JobProducer);
    const empty = (await get('/api/v1/admin/queues')).body.data.queues;
    expect(empty.map((q: { name: string }) => q.name)).toEqual(['maintenance', 'money', 'executions', 'webhooks']);
    expect(empty[0]).toEqual({
      name: 'maintenance',
      waiting: 0,
      active: 0,
      delayed: 0,
      failed: 0,
      completed: 0,
      oldestWaitingAgeMs: null,
    });
    // No worker takes these. Maintenance: one enqueued an hour ago (its creation time given to BullMQ),
    // one now, one delayed. Money: one retried job, created two hours ago, last attempted 10 minutes ago.
    const now = Date.now();
    await producer.enqueue(
      'auth-messages.prune',
      { requestedAt: 'x' },
      { jobId: jobId('auth-messages.prune', 'a'), timestamp: now - 3_600_000 },
    );
    await producer.enqueue('auth-messages.prune', { requestedAt: 'y' }, { jobId: jobId('auth-messages.prune', 'b') });
    await producer.enqueue(
      'idempotency-keys.prune',
      { requestedAt: 'z' },
      { jobId: jobId('idempotency-keys.prune', 'later'), delay: 60_000 },
    );
    for (const id of ['wd_queued00001', 'wd_queued00002'])
      await producer.enqueue(
        'withdrawal.process',
        { withdrawalId: id },
        { jobId: jobId('withdrawal.process', id), timestamp: now - 7_200_000 },
      );
    const retried = await producer.queueFor('withdrawal.process').getJob(jobId('withdrawal.process', 'wd_queued00001'));
    // As BullMQ leaves a job it moved back to waiting after a failed attempt: processedOn set.
    const client = await producer.queueFor('withdrawal.process').client;
    await client.hset(`${retried!.queueQualifiedName}:${retried!.id}`, { processedOn: String(now - 600_000) });

    const res = await get('/api/v1/admin/queues');
    expect(res.status).toBe(200);
    const [maintenance, money] = res.body.data.queues;
    expect(maintenance).toEqual({
      name: 'maintenance',
      waiting: 2,
      active: 0,
      delayed: 1,
      failed: 0,
      completed: 0,
      oldestWaitingAgeMs: expect.any(Number),
    });
    // The oldest (an hour), not the newest (just now).
    expect(maintenance.oldestWaitingAgeMs).toBeGreaterThanOrEqual(3_600_000);
    expect(maintenance.oldestWaitingAgeMs).toBeLessThanOrEqual(Date.now() - now + 3_600_000);
    const counts = await producer.queueFor('withdrawal.process').getJobCounts('waiting');
    expect(money).toMatchObject({ name: 'money', waiting: counts.waiting, active: 0 });
    expect(money.waiting).toBe(2);
    // The retried job at the head of the line has waited since its last attempt (10 minutes), not since
    // it was created (two hours).
    expect(money.oldestWaitingAgeMs).toBeGreaterThanOrEqual(600_000);
    expect(money.oldestWaitingAgeMs).toBeLessThanOrEqual(Date.now() - now + 600_000);
  });
});
