import { randomBytes } from 'node:crypto';
import { TEST_REDIS_URL } from '../setup/test-env';
import { startApi, ApiHarness } from '../support/api-harness';
import { ADMIN } from '../support/disputes';
import { startApiProcess } from '../support/api-process';
import { RunningProcess, waitFor } from '../support/processes';
import { createTestDatabase } from '../support/test-db';

const ROUTES = [
  '/api/v1/admin/disputes',
  '/api/v1/admin/agents/suspended',
  '/api/v1/admin/invariants',
  '/api/v1/admin/queues',
  '/api/v1/admin/pending',
  '/api/v1/admin/webhooks/failed',
];

/** The operator's reads (GET /admin/...): the admin key on each, bad queries, the key kept out of the logs. */
describe('Admin reads: access and queries (e2e)', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());
  const get = (path: string, headers: Record<string, string> = ADMIN) => api.request('GET', path, { headers });

  describe('the admin key', () => {
    it.each(ROUTES)('GET %s: 401 without X-Admin-Key, 403 with a wrong one, in the error envelope', async (path) => {
      const none = await get(path, {});
      expect(none.status).toBe(401);
      expect(none.body).toEqual({
        success: false,
        error: expect.objectContaining({ code: 'UNAUTHORIZED', message: 'X-Admin-Key header is required' }),
      });
      const wrong = await get(path, { 'X-Admin-Key': 'wrong-key-wrong-key' });
      expect(wrong.status).toBe(403);
      expect(wrong.body).toEqual({
        success: false,
        error: expect.objectContaining({ code: 'FORBIDDEN', message: 'X-Admin-Key is not valid' }),
      });
      expect((await get(path)).status).toBe(200);
    });
  });

  describe('bad queries', () => {
    const paged = ROUTES.filter((r) => !r.endsWith('/queues') && !r.endsWith('/pending'));
    it.each(
      paged.flatMap((path) => [
        [path, 'limit=0', 'limit'],
        [path, 'limit=101', 'limit'],
        [path, 'limit=abc', 'limit'],
        [path, 'offset=-1', 'offset'],
        [path, 'status=pending', 'status'],
      ]),
    )('GET %s?%s: 400 VALIDATION_ERROR naming %s', async (path, query, field) => {
      const res = await get(`${path}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it.each([
      ['kind=payout', 'kind'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['offset=5', 'offset'],
    ])('GET /admin/pending?%s: 400 VALIDATION_ERROR naming %s', async (query, field) => {
      const res = await get(`/api/v1/admin/pending?${query}`);
      expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
      expect(res.body.error.details.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it('GET /admin/queues takes no query: 400 for one', async () => {
      const res = await get('/api/v1/admin/queues?limit=5');
      expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    });
  });
});

describe('Admin reads: the api process logs (e2e)', () => {
  const KEY = `admin-key-${randomBytes(12).toString('hex')}`;
  let proc: RunningProcess;
  let baseUrl: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    db = await createTestDatabase();
    ({ url: baseUrl, process: proc } = await startApiProcess({
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: `ta${randomBytes(4).toString('hex')}`,
      LOG_LEVEL: 'info',
      ADMIN_API_KEY: KEY,
    }));
  });
  afterAll(async () => {
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    await db.drop();
  });

  it('logs each admin read, with the key redacted and nowhere in the output', async () => {
    for (const [i, path] of ROUTES.entries()) {
      const headers = { 'X-Admin-Key': KEY, 'X-Request-ID': `admin-read-${i}` };
      expect((await fetch(`${baseUrl}${path}`, { headers })).status).toBe(200);
      expect((await fetch(`${baseUrl}${path}?limit=0`, { headers: { 'X-Admin-Key': KEY } })).status).toBe(400);
      expect((await fetch(`${baseUrl}${path}`, { headers: { 'X-Admin-Key': `${KEY}x` } })).status).toBe(403);
    }
    const lines = () =>
      proc
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, any>);
    const logged = await waitFor(async () => {
      const found = ROUTES.map((_p, i) => lines().find((l) => l.requestId === `admin-read-${i}` && l.res));
      return found.every(Boolean) ? found : null;
    }, 'request log lines');
    for (const line of logged) expect(line!.req.headers['x-admin-key']).toBe('[redacted]');
    expect(proc.output()).not.toContain(KEY);
  });
});
