/* npm run bench:scale: one route measured (warm-up, percentiles, statuses) and the table's cells; see scale-bench.ts. */
import { readdirSync, statSync } from 'node:fs';
import { Client as HttpClient } from 'undici';

export const WARMUP = Number(process.env.SCALE_WARMUP ?? 20);
export const REQUESTS = Number(process.env.SCALE_REQUESTS ?? 200);
export const ROUTE_BUDGET_MS = Number(process.env.SCALE_ROUTE_SECONDS ?? 60) * 1000;
export const MIN_REQUESTS = 20;

export type Route = { name: string; path: (i: number) => string; headers?: () => Promise<Record<string, string>> };

/** Percentiles of the 2xx answers; non-2xx answers by status; the size of the last answer (an empty page shows there). */
export type Result = { n: number; p50: number; p95: number; non2xx: Record<number, number>; bytes: number };

export const percentile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] : NaN;

/** One route, one request at a time: warm-up, then the measured requests (2xx only in the percentiles). */
export async function measure(http: HttpClient, route: Route): Promise<Result> {
  const headers = route.headers ? await route.headers() : {}; // one signature per route: reads may reuse it within its window
  const times: number[] = [];
  const non2xx: Record<number, number> = {};
  let bytes = 0;
  let started = performance.now();
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    if (i === WARMUP) started = performance.now();
    const t = performance.now();
    const res = await http.request({ method: 'GET', path: route.path(i), headers });
    const body = await res.body.arrayBuffer();
    const ms = performance.now() - t;
    bytes = body.byteLength;
    if (i === 0 && process.env.SCALE_DEBUG)
      process.stdout.write(`    ${res.statusCode} ${Buffer.from(body).toString('utf8').slice(0, 600)}\n`);
    if (i < WARMUP) {
      // A slow route warms up for at most a tenth of its budget (at least 3 requests).
      if (i >= 2 && performance.now() - started > ROUTE_BUDGET_MS / 10) i = WARMUP - 1;
      continue;
    }
    if (res.statusCode >= 200 && res.statusCode < 300) times.push(ms);
    else non2xx[res.statusCode] = (non2xx[res.statusCode] ?? 0) + 1;
    if (i + 1 - WARMUP >= MIN_REQUESTS && performance.now() - started > ROUTE_BUDGET_MS) break;
  }
  times.sort((a, b) => a - b);
  const n = times.length + Object.values(non2xx).reduce((s, c) => s + c, 0);
  return { n, p50: percentile(times, 0.5), p95: percentile(times, 0.95), non2xx, bytes };
}

export const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0));
export const statuses = (r: Result) =>
  Object.entries(r.non2xx)
    .map(([status, count]) => `${count}× ${status}`)
    .join(', ');

export function cell(r: Result | undefined): string {
  if (!r) return '-';
  if (Number.isNaN(r.p50)) return `HTTP ${Object.keys(r.non2xx).join('/')} (all ${r.n})`;
  const bad = statuses(r);
  return `${fmt(r.p50)} / ${fmt(r.p95)}${bad ? ` (${bad})` : ''}`;
}

/** The newest modification time of a .ts file under apps/ and libs/. */
export function sourceStamp(): number {
  let newest = 0;
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(`${dir}/${e.name}`);
      else if (e.name.endsWith('.ts')) newest = Math.max(newest, statSync(`${dir}/${e.name}`).mtimeMs);
    }
  };
  ['apps', 'libs'].forEach(walk);
  return newest;
}
