import { readFileSync } from 'node:fs';

/**
 * The file of a console build that lists its routes (a JSON array of React Router paths), beside its
 * index.html: written by the console's build from apps/console/src/routes.ts, its one list of pages.
 */
export const CONSOLE_ROUTES_FILE = 'routes.json';

const LITERAL = /^[A-Za-z0-9._~-]+$/;
const PARAM = /^:[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Whether a request's path is one of the console's pages, as React Router matches it: a literal
 * segment in any letter case, a `:param` segment one non-empty segment, a last `*` whatever follows,
 * and a trailing slash allowed. A route of any other shape is an error (the build is not one this
 * api understands).
 */
export function consoleRouteMatcher(routes: readonly string[]): (path: string) => boolean {
  const patterns = routes.map((route) => {
    if (!route.startsWith('/')) throw new Error(`console route ${JSON.stringify(route)}: not a path`);
    const segments = route.split('/').slice(1).filter(Boolean);
    const body = segments
      .map((s, i) => {
        if (s === '*' && i === segments.length - 1) return '(?:/.*)?';
        if (PARAM.test(s)) return '/[^/]+';
        if (LITERAL.test(s)) return `/${s.replace(/\./g, '\\.')}`;
        throw new Error(`console route ${JSON.stringify(route)}: segment ${JSON.stringify(s)} is not understood`);
      })
      .join('');
    return new RegExp(`^${body}/?$`, 'i');
  });
  return (path) => patterns.some((p) => p.test(path));
}

/** The routes a console build lists (CONSOLE_ROUTES_FILE), or null when it lists none (no such file, or not a list of paths). */
export function readConsoleRoutes(file: string): string[] | null {
  let routes: unknown;
  try {
    routes = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  return Array.isArray(routes) && routes.length > 0 && routes.every((r) => typeof r === 'string') ? routes : null;
}

/**
 * Whether a request asks for a page (a browser's Accept: text/html) rather than data: an Accept that
 * names text/html and not application/json (q=0 naming neither). No Accept, or one naming JSON: data.
 */
export function wantsHtml(accept: string | undefined): boolean {
  const types = (accept ?? '')
    .split(',')
    .map((part) => part.split(';').map((p) => p.trim().toLowerCase()))
    .filter(([, ...params]) => !params.some((p) => /^q=0(\.0*)?$/.test(p)))
    .map(([type]) => type);
  return types.includes('text/html') && !types.includes('application/json');
}
