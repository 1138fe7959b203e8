import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { consoleRouteMatcher, readConsoleRoutes, wantsHtml } from './console-routes';

describe('console routes', () => {
  const isPage = consoleRouteMatcher(['/', '/agents/:id', '/sign-in', '/docs/*']);

  it.each([
    ['/', true],
    ['/agents/5d6c0e8e-35a5-4c1c-9a30-1e4b0d2a7f10', true],
    ['/agents/x/', true],
    ['/AGENTS/x', true],
    ['/sign-in', true],
    ['/sign-in/', true],
    ['/docs', true],
    ['/docs/a/b', true],
    ['/agents', false],
    ['/agents/', false],
    ['/agents/x/y', false],
    ['/sign-in/x', false],
    ['/sign', false],
    ['/no-such-path', false],
    ['/index.html', false],
  ])('%s: a page %s', (path, page) => {
    expect(isPage(path)).toBe(page);
  });

  it('refuses a route it does not understand', () => {
    expect(() => consoleRouteMatcher(['agents'])).toThrow('not a path');
    expect(() => consoleRouteMatcher(['/agents/:id?'])).toThrow('is not understood');
    expect(() => consoleRouteMatcher(['/*/x'])).toThrow('is not understood');
  });

  it('reads a build list, and none from a missing or malformed file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-routes-'));
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    expect(readConsoleRoutes(file('ok.json', '["/","/owner"]'))).toEqual(['/', '/owner']);
    expect(readConsoleRoutes(join(dir, 'missing.json'))).toBeNull();
    expect(readConsoleRoutes(file('bad.json', '{"routes":[]}'))).toBeNull();
    expect(readConsoleRoutes(file('empty.json', '[]'))).toBeNull();
    expect(readConsoleRoutes(file('broken.json', '["/'))).toBeNull();
  });

  it.each([
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', true],
    ['TEXT/HTML', true],
    ['application/json', false],
    ['application/json, text/html', false],
    ['text/html;q=0, application/json', false],
    ['text/html;q=0', false],
    ['*/*', false],
    [undefined, false],
  ])('Accept %s: a page %s', (accept, html) => {
    expect(wantsHtml(accept)).toBe(html);
  });
});
