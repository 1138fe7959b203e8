import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import CONSOLE_ROUTES from '../../apps/console/src/routes.json';
import { startApi, ApiHarness } from '../support/api-harness';

const page = '<!doctype html><title>agora console test page</title><div id="root"></div>';
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** A console build in a directory of its own: its page, an asset and its routes (none: an older build). */
function consoleBuild(routes: readonly string[] | null): string {
  const dir = mkdtempSync(join(tmpdir(), 'console-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), page);
  writeFileSync(join(dir, 'assets', 'app-1a2b3c.js'), 'console.log("app")');
  if (routes) writeFileSync(join(dir, 'routes.json'), JSON.stringify(routes));
  return dir;
}

/** A path of a console route, its parameters filled in. */
const pathOf = (route: string) => route.replace(/:[A-Za-z]+/g, 'req_Zx9aQ2');

/** The API's 404: the error envelope, JSON. */
async function expectNotFoundEnvelope(api: ApiHarness, path: string, accept?: string) {
  const res = await api.request('GET', path, { headers: accept ? { accept } : {} });
  expect({ path, accept, status: res.status, type: res.headers.get('content-type'), body: res.body }).toEqual({
    path,
    accept,
    status: 404,
    type: expect.stringContaining('application/json'),
    body: { success: false, error: expect.objectContaining({ code: 'NOT_FOUND', message: expect.any(String) }) },
  });
}

/**
 * The api serves the console at `/`: its page at the console's routes (apps/console/src/routes.json,
 * shipped in the build beside its page), its hashed assets under /assets; any other path is a 404
 * (issue 51): the console's page for a browser, the error envelope for any other client. The API's
 * paths keep their own answers.
 */
describe('console serving (e2e)', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await startApi({ CONSOLE_DIR: consoleBuild(CONSOLE_ROUTES) });
  });
  afterAll(async () => {
    await api.close();
  });

  it('every console route: the console page, no-cache, with a CSP that allows only this origin', async () => {
    expect(CONSOLE_ROUTES).toEqual(
      expect.arrayContaining(['/', '/agents/:id', '/executions/:requestId', '/chains/:id']),
    );
    for (const path of [...CONSOLE_ROUTES.map(pathOf), '/chains/x?tab=gantt', '/owner/', '/Sign-In'])
      for (const accept of [BROWSER, 'application/json', undefined]) {
        const res = await fetch(`${api.baseUrl}${path}`, { headers: accept ? { accept } : {} });
        const csp = res.headers.get('content-security-policy') ?? '';
        expect({
          path,
          accept,
          status: res.status,
          type: res.headers.get('content-type'),
          cache: res.headers.get('cache-control'),
          csp: csp.includes("default-src 'self'") && csp.includes("frame-ancestors 'none'"),
          body: await res.text(),
        }).toEqual({
          path,
          accept,
          status: 200,
          type: 'text/html; charset=utf-8',
          cache: 'no-cache',
          csp: true,
          body: page,
        });
      }
  });

  it('a path the console does not have: 404, the page (its not-found view) for a browser, the envelope otherwise', async () => {
    for (const path of ['/no-such-path', '/agents', '/agents/x/y', '/index.html', '/sign-in/more']) {
      const html = await fetch(`${api.baseUrl}${path}`, { headers: { accept: BROWSER } });
      expect({ path, status: html.status, type: html.headers.get('content-type') }).toEqual({
        path,
        status: 404,
        type: 'text/html; charset=utf-8',
      });
      expect(html.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(html.headers.get('vary')).toContain('Accept');
      expect(await html.text()).toBe(page);
      for (const accept of ['application/json', 'application/json, text/html', '*/*', undefined])
        await expectNotFoundEnvelope(api, path, accept);
    }
    const head = await fetch(`${api.baseUrl}/no-such-path`, { method: 'HEAD', headers: { accept: BROWSER } });
    expect(head.status).toBe(404);
  });

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
    ['POST', '/no-such-path'],
    ['GET', '/.well-known/nope'],
    ['GET', '/API/v1/nope'],
    ['GET', '/.Well-Known/nope'],
    ['GET', '/x402/discovery/nope'],
  ])('%s %s: not the page, even for a browser (the API answers 404)', async (method, path) => {
    const res = await api.request(method, path, { headers: { accept: BROWSER } });
    expect(res.headers.get('content-type')).not.toContain('text/html');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: expect.objectContaining({ code: 'NOT_FOUND' }) });
  });

  it('the API and the discovery documents outside /api keep their answers', async () => {
    const health = await api.request('GET', '/api/v1/health');
    expect(health.status).toBe(200);
    const wellKnown = await api.request('GET', '/.well-known/x402');
    expect(wellKnown.status).toBe(200);
    expect(wellKnown.headers.get('content-type')).toContain('application/json');
  });
});

describe('console serving, no console (e2e)', () => {
  it.each([
    ['not built (the API alone)', undefined],
    ['built without its routes (an older build: the API alone)', consoleBuild(null)],
  ])('%s: every path outside the API is the 404 envelope, for a browser too', async (_, dir) => {
    const api = await startApi(dir ? { CONSOLE_DIR: dir } : {});
    try {
      for (const path of ['/', '/no-such-path', '/agents/x'])
        for (const accept of [BROWSER, 'application/json', undefined]) await expectNotFoundEnvelope(api, path, accept);
      expect((await api.request('GET', '/api/v1/health')).status).toBe(200);
    } finally {
      await api.close();
    }
  });
});
