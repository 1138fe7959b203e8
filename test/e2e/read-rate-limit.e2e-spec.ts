import { startApi, ApiHarness } from '../support/api-harness';
import { waitFor } from '../support/processes';

const LIMIT = 5;
const CATALOG = 3;

/** Issue 16, defect 8: public reads are limited per IP and minute (shared through Redis); health and writes are not counted. */
describe('public reads are rate-limited per IP (e2e)', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await startApi({ RATE_LIMIT_READS_PER_MIN: String(LIMIT), RATE_LIMIT_CATALOG_PER_MIN: String(CATALOG) });
  });
  afterAll(async () => {
    await api.close();
  });

  it(`${LIMIT} reads a minute, then 429 RATE_LIMITED with Retry-After; health and writes are not counted`, async () => {
    // The window is the clock's minute: start well inside one, so the test does not straddle two.
    await waitFor(async () => Date.now() % 60_000 < 50_000, 'the start of a minute', 15_000);
    const paths = [
      '/api/v1/discover',
      '/api/v1/discover/recommend?query=translate',
      '/api/v1/payments/stats',
      '/api/v1/reputation/leaderboard',
      '/api/v1/discover',
    ];
    for (const [i, path] of paths.entries()) {
      const res = await api.request('GET', path);
      expect([path, res.status, res.headers.get('x-ratelimit-remaining')]).toEqual([path, 200, String(LIMIT - i - 1)]);
    }
    expect((await api.request('GET', '/api/v1/health')).status).toBe(200);
    expect((await api.request('POST', '/api/v1/agents', { body: {} })).status).not.toBe(429);
    const limited = await api.request('GET', '/api/v1/payments/stats');
    expect([limited.status, limited.body.error.code]).toEqual([429, 'RATE_LIMITED']);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it(`the catalogue's routes outside /api/v1 count in their own window (${CATALOG} a minute), apart from reads`, async () => {
    await waitFor(async () => Date.now() % 60_000 < 50_000, 'the start of a minute', 15_000);
    const paths = ['/x402/discovery/resources', '/.well-known/x402', '/llms.txt'];
    for (const [i, path] of paths.entries()) {
      const res = await api.request('GET', path);
      expect([
        path,
        res.status,
        res.headers.get('x-ratelimit-limit'),
        res.headers.get('x-ratelimit-remaining'),
      ]).toEqual([path, 200, String(CATALOG), String(CATALOG - i - 1)]);
    }
    const limited = await api.request('GET', '/.well-known/agent-card.json');
    expect([limited.status, limited.body.error.code]).toEqual([429, 'RATE_LIMITED']);
    expect(limited.headers.get('retry-after')).toEqual(expect.stringMatching(/^\d+$/));
  });
});
