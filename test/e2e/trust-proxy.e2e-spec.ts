import { startApi, ApiHarness } from '../support/api-harness';
import { waitFor } from '../support/processes';

/*
 * TRUST_PROXY: whose X-Forwarded-For the api believes for the caller's IP (the per-IP limits). The
 * harness's requests come from 127.0.0.1; remaining reads tell which IP a request was counted for.
 */
describe('TRUST_PROXY names the proxies whose X-Forwarded-For is believed (e2e)', () => {
  const apis: ApiHarness[] = [];
  afterAll(async () => {
    for (const api of apis) await api.close();
  });

  async function remaining(trustProxy: string | undefined): Promise<string[]> {
    const api = await startApi({
      RATE_LIMIT_READS_PER_MIN: '100',
      ...(trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy }),
    });
    apis.push(api);
    // The window is the clock's minute: all three requests inside one.
    await waitFor(async () => Date.now() % 60_000 < 50_000, 'the start of a minute', 15_000);
    const out: string[] = [];
    for (const ip of ['203.0.113.7', '203.0.113.8', '203.0.113.7']) {
      const res = await api.request('GET', '/api/v1/payments/stats', { headers: { 'X-Forwarded-For': ip } });
      expect(res.status).toBe(200);
      out.push(res.headers.get('x-ratelimit-remaining')!);
    }
    return out;
  }

  it('by default a proxy on loopback: each forwarded client is counted apart', async () => {
    expect(await remaining(undefined)).toEqual(['99', '99', '98']);
  });

  it('a peer outside the list is the caller itself, whatever it forwards', async () => {
    expect(await remaining('10.0.0.0/8')).toEqual(['99', '98', '97']);
  });
});
