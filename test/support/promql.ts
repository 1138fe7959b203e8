import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { Sample } from './prometheus';

/**
 * The alert rules of docs/ops/alerts.yml evaluated over scrapes a test took (no Prometheus here):
 * the subset of PromQL they use (sum [by], rate, increase, clamp_min, histogram_quantile, time(),
 * label matchers, + - * /, comparisons). Counters are read without Prometheus's extrapolation, and
 * a series that appears mid-window counts from 0 (Prometheus would miss its first increase): the
 * evaluation rings at least whenever Prometheus would.
 */
export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
}

type Labels = Record<string, string>;
type Vector = { labels: Labels; value: number }[];
type Value = number | Vector;

export function alertRules(): AlertRule[] {
  const doc = parse(readFileSync(join(__dirname, '..', '..', 'docs', 'ops', 'alerts.yml'), 'utf8'));
  return doc.groups.flatMap((g: { rules: AlertRule[] }) => g.rules);
}

export function durationS(d: string): number {
  const m = /^(\d+)([smh])$/.exec(d.trim());
  if (!m) throw new Error(`duration ${d}`);
  return Number(m[1]) * { s: 1, m: 60, h: 3600 }[m[2] as 's' | 'm' | 'h'];
}

/** Scrapes of every process, each at its time (seconds). */
export class ScrapeStore {
  readonly scrapes: { at: number; samples: Sample[] }[] = [];

  add(at: number, samples: Sample[]): void {
    this.scrapes.push({ at, samples });
  }

  /** The series of `name` matching `m` at the last scrape at or before `t`. */
  instant(name: string, m: Matcher[], t: number): Vector {
    const s = [...this.scrapes].reverse().find((x) => x.at <= t);
    return (s?.samples ?? []).filter((x) => x.name === name && matches(x.labels, m)).map(vec);
  }

  /** Each series' points in (t - range, t]; a series absent from a scrape in the window is 0 there for counters. */
  range(name: string, m: Matcher[], t: number, rangeS: number): { labels: Labels; points: number[] }[] {
    const inWindow = this.scrapes.filter((x) => x.at <= t && x.at > t - rangeS);
    const series = new Map<string, { labels: Labels; points: number[] }>();
    for (const [i, s] of inWindow.entries())
      for (const x of s.samples.filter((y) => y.name === name && matches(y.labels, m))) {
        const key = JSON.stringify(x.labels);
        const e = series.get(key) ?? { labels: x.labels, points: new Array<number>(i).fill(0) };
        while (e.points.length < i) e.points.push(e.points[e.points.length - 1] ?? 0);
        e.points.push(x.value);
        series.set(key, e);
      }
    return [...series.values()];
  }
}

type Matcher = { label: string; op: string; value: string };
const vec = (x: Sample) => ({ labels: x.labels, value: x.value });
function matches(labels: Labels, ms: Matcher[]): boolean {
  return ms.every(({ label, op, value }) => {
    const v = labels[label] ?? '';
    if (op === '=') return v === value;
    if (op === '!=') return v !== value;
    const re = new RegExp(`^(?:${value})$`);
    return op === '=~' ? re.test(v) : !re.test(v);
  });
}

const TOKEN =
  /\s*(\d+(?:\.\d+)?(?:e-?\d+)?|[a-zA-Z_:][a-zA-Z0-9_:]*|"(?:[^"\\]|\\.)*"|\[\d+[smh]\]|==|!=|>=|<=|=~|!~|[-+*/(){},=<>])/y;

/** Evaluates `expr` at time `t` (seconds) over the store. */
export function evaluate(expr: string, store: ScrapeStore, t: number): Value {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < expr.trimEnd().length) {
    const m = TOKEN.exec(expr);
    if (!m) throw new Error(`cannot read ${expr.slice(TOKEN.lastIndex)}`);
    tokens.push(m[1]);
  }
  let i = 0;
  const peek = () => tokens[i];
  const take = (want?: string) => {
    const tok = tokens[i++];
    if (want !== undefined && tok !== want) throw new Error(`expected ${want}, got ${tok} in ${expr}`);
    return tok;
  };
  const labelList = () => {
    take('(');
    const out: string[] = [];
    while (peek() !== ')') {
      out.push(take());
      if (peek() === ',') take();
    }
    take(')');
    return out;
  };
  const selector = (name: string) => {
    const ms: Matcher[] = [];
    if (peek() === '{') {
      take('{');
      while (peek() !== '}') {
        const label = take();
        const op = take();
        ms.push({ label, op, value: JSON.parse(take()) as string });
        if (peek() === ',') take();
      }
      take('}');
    }
    const range = peek()?.startsWith('[') ? durationS(take().slice(1, -1)) : null;
    return { name, ms, range };
  };
  const primary = (): Value => {
    const tok = take();
    if (tok === '(') {
      const v = comparison();
      take(')');
      return v;
    }
    if (/^\d/.test(tok)) return Number(tok);
    if (tok === 'sum') {
      const by = peek() === 'by' ? (take(), labelList()) : null;
      take('(');
      const inner = comparison() as Vector;
      take(')');
      const groups = new Map<string, { labels: Labels; value: number }>();
      for (const x of inner) {
        const labels = Object.fromEntries((by ?? []).map((l) => [l, x.labels[l] ?? '']));
        const key = JSON.stringify(labels);
        const g = groups.get(key) ?? { labels, value: 0 };
        g.value += x.value;
        groups.set(key, g);
      }
      return [...groups.values()];
    }
    if (tok === 'time') {
      take('(');
      take(')');
      return t;
    }
    if (tok === 'rate' || tok === 'increase') {
      take('(');
      const s = selector(take());
      take(')');
      return store.range(s.name, s.ms, t, s.range!).flatMap(({ labels, points }) => {
        if (points.length < 2) return [];
        let inc = 0;
        for (let k = 1; k < points.length; k++)
          inc += points[k] >= points[k - 1] ? points[k] - points[k - 1] : points[k];
        return [{ labels: dropName(labels), value: tok === 'rate' ? inc / s.range! : inc }];
      });
    }
    if (tok === 'clamp_min') {
      take('(');
      const v = comparison() as Vector;
      take(',');
      const min = Number(take());
      take(')');
      return v.map((x) => ({ ...x, value: Math.max(x.value, min) }));
    }
    if (tok === 'histogram_quantile') {
      take('(');
      const q = Number(take());
      take(',');
      const inner = comparison() as Vector;
      take(')');
      return quantiles(q, inner);
    }
    const s = selector(tok);
    return store.instant(s.name, s.ms, t).map((x) => ({ labels: dropName(x.labels), value: x.value }));
  };
  const binary = (l: Value, r: Value, f: (a: number, b: number) => number | null): Value => {
    if (typeof l === 'number' && typeof r === 'number') return f(l, r) ?? NaN;
    const pick = (v: Value, labels: Labels) =>
      typeof v === 'number' ? v : v.find((x) => JSON.stringify(x.labels) === JSON.stringify(labels))?.value;
    const base = (typeof l === 'number' ? r : l) as Vector;
    return base.flatMap((x) => {
      const a = pick(l, x.labels);
      const b = pick(r, x.labels);
      if (a === undefined || b === undefined) return [];
      const out = f(a, b);
      return out === null ? [] : [{ labels: x.labels, value: out }];
    });
  };
  const term = (): Value => {
    let v = primary();
    while (peek() === '*' || peek() === '/') {
      const op = take();
      v = binary(v, primary(), (a, b) => (op === '*' ? a * b : a / b));
    }
    return v;
  };
  const sumOf = (): Value => {
    let v = term();
    while (peek() === '+' || peek() === '-') {
      const op = take();
      v = binary(v, term(), (a, b) => (op === '+' ? a + b : a - b));
    }
    return v;
  };
  const CMP: Record<string, (a: number, b: number) => boolean> = {
    '>': (a, b) => a > b,
    '<': (a, b) => a < b,
    '>=': (a, b) => a >= b,
    '<=': (a, b) => a <= b,
    '==': (a, b) => a === b,
    '!=': (a, b) => a !== b,
  };
  function comparison(): Value {
    const l = sumOf();
    if (!(peek() in CMP)) return l;
    const cmp = CMP[take()];
    return binary(l, sumOf(), (a, b) => (cmp(a, b) ? a : null));
  }
  const quantiles = (q: number, v: Vector): Vector => {
    const groups = new Map<string, { labels: Labels; buckets: [number, number][] }>();
    for (const x of v) {
      const { le, ...rest } = x.labels;
      const key = JSON.stringify(rest);
      const g = groups.get(key) ?? { labels: rest, buckets: [] };
      g.buckets.push([le === '+Inf' ? Infinity : Number(le), x.value]);
      groups.set(key, g);
    }
    return [...groups.values()].flatMap(({ labels, buckets }) => {
      buckets.sort((a, b) => a[0] - b[0]);
      const total = buckets[buckets.length - 1]?.[1] ?? 0;
      if (total === 0) return [];
      const rank = q * total;
      let prev: [number, number] = [0, 0];
      for (const b of buckets) {
        if (b[1] >= rank) {
          if (b[0] === Infinity) return [{ labels, value: prev[0] }];
          return [{ labels, value: prev[0] + ((b[0] - prev[0]) * (rank - prev[1])) / (b[1] - prev[1] || 1) }];
        }
        prev = b;
      }
      return [];
    });
  };
  const v = comparison();
  if (i !== tokens.length) throw new Error(`unread ${tokens.slice(i).join(' ')} in ${expr}`);
  return v;
}

function dropName(labels: Labels): Labels {
  const { __name__: _n, ...rest } = labels;
  return rest;
}
