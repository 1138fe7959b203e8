/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4), for asserting on
 * /metrics. The npm parsers tried (parse-prometheus-text-format 1.1.1, exposition) drop or mangle
 * the labels of histogram series, which every histogram here has, so the tests read the format
 * themselves: every line must be a comment, `# HELP`, `# TYPE` or a well-formed sample, every sample
 * must belong to a declared family, or the scrape is refused.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+-?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES = ['_bucket', '_sum', '_count', '_total', '_created'];

export function parsePrometheus(text: string): Sample[] {
  const families = new Map<string, string>();
  const samples: Sample[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (line === '') continue;
    const fail = (why: string) => new Error(`line ${i + 1} "${line}": ${why}`);
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) ?(.*)$/.exec(line);
      if (m?.[1] === 'TYPE') {
        if (!TYPES.has(m[3])) throw fail(`unknown type ${m[3]}`);
        families.set(m[2], m[3]);
      }
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw fail('not a sample');
    const labels: Record<string, string> = {};
    if (m[3]) {
      LABEL.lastIndex = 0;
      while (LABEL.lastIndex < m[3].length) {
        const l = LABEL.exec(m[3]);
        if (!l) throw fail('malformed labels');
        labels[l[1]] = l[2].replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
      }
    }
    // Values as Go's ParseFloat reads them: numbers, and NaN / +Inf / -Inf in any letter case.
    const special = m[4].toLowerCase();
    const value =
      special === 'nan'
        ? NaN
        : special === '+inf' || special === 'inf'
          ? Infinity
          : special === '-inf'
            ? -Infinity
            : Number(m[4]);
    if (Number.isNaN(value) && special !== 'nan') throw fail('value is not a number');
    const family = families.has(m[1])
      ? m[1]
      : SUFFIXES.map((s) => (m[1].endsWith(s) ? m[1].slice(0, -s.length) : '')).find((f) => f && families.has(f));
    if (!family) throw fail('sample of no declared family');
    samples.push({ name: m[1], labels, value });
  }
  return samples;
}

/** The value of the one sample with this name and these labels (among others), 0 when there is none. */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

/** The metric families a scrape declares (`# TYPE` lines), whether or not they have samples yet. */
export function declaredFamilies(text: string): Set<string> {
  return new Set([...text.matchAll(/^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) /gm)].map((m) => m[1]));
}

/** The family a series name belongs to: itself, or without a histogram or counter suffix. */
export function familyOf(name: string, families: Set<string>): string | undefined {
  return [name, ...SUFFIXES.filter((x) => name.endsWith(x)).map((x) => name.slice(0, -x.length))].find((f) =>
    families.has(f),
  );
}
