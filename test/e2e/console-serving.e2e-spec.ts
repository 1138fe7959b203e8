import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApi, ApiHarness } from '../support/api-harness';

/**
 * The api serves the console at `/`: its page for any GET outside the API's paths (the console
 * routes in the browser), its hashed assets under /assets; the API's paths keep their own answers.
 */
describe('console serving (e2e)', () => {
  let api: ApiHarness;
  const page = '<!doctype html><title>agora console test page</title><div id="root"></div>';

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), page);
    writeFileSync(join(dir, 'assets', 'app-1a2b3c.js'), 'console.log("app")');
    api = await startApi({ CONSOLE_DIR: dir });
  });
  afterAll(async () => {
    await api.close();
  });

  it.each(['/', '/agents/5d6c0e8e-35a5-4c1c-9a30-1e4b0d2a7f10', '/executions/req_1', '/chains/x?tab=gantt'])(
    'GET %s: the console page, no-cache, with a CSP that allows only this origin',
    async (path) => {
      const res = await fetch(`${api.baseUrl}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(await res.text()).toBe(page);
    },
  );

  it('an asset: the file, cached for a year', async () => {
    const res = await fetch(`${api.baseUrl}/assets/app-1a2b3c.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe('console.log("app")');
  });

  it.each([
    ['GET', '/api/v1/nope'],
    ['GET', '/assets/missing.js'],
    ['POST', '/'],
    ['GET', '/.well-known/nope'],
    ['GET', '/API/v1/nope'],
    ['GET', '/.Well-Known/nope'],
    ['GET', '/x402/discovery/nope'],
  ])('%s %s: not the page (the API answers)', async (method, path) => {
    const res = await api.request(method, path);
    expect(res.headers.get('content-type')).not.toContain('text/html');
    expect(res.status).toBe(404);
  });

  it('the API and the discovery documents outside /api keep their answers', async () => {
    const health = await api.request('GET', '/api/v1/health');
    expect(health.status).toBe(200);
    const wellKnown = await api.request('GET', '/.well-known/x402');
    expect(wellKnown.status).toBe(200);
    expect(wellKnown.headers.get('content-type')).toContain('application/json');
  });
});
