import { RE2JS } from 're2js';
import { FORMAT_MAX_LENGTH } from './bounded-formats';
import { canonicalJson } from './canonical-json';
import { MAX_TRACKED_ERRORS, WORK_BUDGET } from './limits';
import { compilePattern, MeteredPattern } from './re2-engine';
import { SchemaValidator } from './schema-validator';
import { WorkBudgetExceeded, WorkMeter } from './work-meter';

const fill = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
const chain = (depth: number): unknown => (depth === 0 ? 'x' : [chain(depth - 1)]);
const stopped = /^validation stopped: /;
/** Pseudo-random a/b string: every window differs, so the DFA keeps building states. */
const randomAb = (n: number): string => {
  let x = 12345;
  return fill(n, () => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return (x >> 8) % 2 ? 'a' : 'b';
  }).join('');
};

function timed<T>(f: () => T): [T, number] {
  const t0 = process.hrtime.bigint();
  const r = f();
  return [r, Number(process.hrtime.bigint() - t0) / 1e6];
}

describe('work budget', () => {
  const v = new SchemaValidator();

  it('stops an exponential anyOf recursion (3^60 evaluations) with a message', () => {
    const schema = {
      anyOf: [
        { type: 'array', items: { $ref: '#' } },
        { type: 'array', items: { $ref: '#' } },
        { type: 'array', items: { $ref: '#' } },
        { type: 'number' },
      ],
    };
    const [errors, ms] = timed(() => v.validate('a', schema, chain(60)));
    expect(errors).toEqual([{ path: '/', message: expect.stringMatching(stopped) }]);
    expect(ms).toBeLessThan(1000);
  });

  it('stops quadratic error copying ($ref in items, every item failing)', () => {
    const schema = { definitions: { s: { type: 'string' } }, type: 'array', items: { $ref: '#/definitions/s' } };
    const [errors, ms] = timed(() =>
      v.validate(
        'a',
        schema,
        fill(200_000, () => 0),
      ),
    );
    expect(errors[0]).toEqual({ path: '/0', message: 'must be string' });
    expect(errors[errors.length - 1].message).toMatch(/^further errors not listed: /);
    expect(ms).toBeLessThan(1000);
  });

  it('lists at most MAX_TRACKED_ERRORS errors before stopping', () => {
    const [errors] = timed(() =>
      v.validate(
        'a',
        { type: 'array', items: { type: 'string' } },
        fill(5_000, () => 0),
      ),
    );
    expect(errors.length).toBe(2);
    expect(errors[1].message).toBe(
      `further errors not listed: the value has more than ${MAX_TRACKED_ERRORS} errors against the schema`,
    );
    expect(
      v.validate(
        'a',
        { type: 'array', items: { type: 'string' } },
        fill(150, () => 0),
      ),
    ).toHaveLength(101);
  });

  it('charges every step before it runs, so a stopped validation spends about one budget', () => {
    // 41 fails multipleOf 2..40 and passes 41: 40 evaluations and 39 discarded errors per item.
    const [errors] = timed(() =>
      v.validate(
        'a',
        { type: 'array', items: { anyOf: fill(40, (i) => ({ multipleOf: i + 2 })) } },
        fill(100_000, () => 41),
      ),
    );
    expect(errors).toEqual([{ path: '/', message: expect.stringMatching(stopped) }]);
    expect(v.lastWorkUnits).toBeGreaterThan(WORK_BUDGET);
    expect(v.lastWorkUnits).toBeLessThan(WORK_BUDGET * 1.1);
  });
});

describe('formats', () => {
  const v = new SchemaValidator();

  it('fails a string longer than its format cap without running the format', () => {
    const url = `ftp://a.${':'.repeat(FORMAT_MAX_LENGTH.url)}!`;
    const [errors, ms] = timed(() => v.validate('a', { type: 'string', format: 'url' }, url));
    expect(errors).toEqual([{ path: '/', message: 'must match format "url"' }]);
    expect(ms).toBeLessThan(1000);
    expect(v.validate('a', { type: 'string', format: 'date-time' }, `2024-01-01T00:00:00Z${' '.repeat(200)}`)).toEqual([
      { path: '/', message: 'must match format "date-time"' },
    ]);
    expect(v.validate('a', { type: 'string', format: 'date-time' }, '2024-01-01T00:00:00Z')).toEqual([]);
    expect(v.validate('a', { type: 'string', format: 'url' }, 'https://example.com/a?b=c')).toEqual([]);
  });

  it('pays for base64 per character (no cap) and stops past the budget', () => {
    expect(v.validate('a', { type: 'string', format: 'byte' }, 'QUJD'.repeat(1000))).toEqual([]);
    expect(v.validate('a', { type: 'string', format: 'byte' }, 'QUJD'.repeat(300_000))[0].message).toMatch(stopped);
  });
});

describe('metered RE2 patterns', () => {
  it('hooks the lazy DFA of re2js (the precise metering is active)', () => {
    const re = compilePattern('^[a-z]+$') as RE2JS;
    expect(new MeteredPattern('^[a-z]+$', re, new WorkMeter()).metered).toBe(true);
  });

  it('pays DFA states as they are built and drops them when the validation ends', () => {
    const meter = new WorkMeter();
    const p = new MeteredPattern('(?:a|b)*a(?:a|b){12}c', compilePattern('(?:a|b)*a(?:a|b){12}c') as RE2JS, meter);
    const dfa = p['re'].re2().dfa;
    meter.begin(1e12, new WeakMap());
    expect(p.test(`${randomAb(20_000)}a${'b'.repeat(12)}c`)).toBe(true);
    const spent = meter.spent();
    expect(spent).toBeGreaterThan(20_000 * 25 + 1_000 * 200);
    expect(dfa.stateCount).toBeGreaterThan(1_000);
    meter.end();
    expect(dfa.stateCount).toBe(0);
  });

  it('stops a DFA state explosion on a long string within the budget', () => {
    const meter = new WorkMeter();
    const p = new MeteredPattern('x', compilePattern('(?:a|b)*a(?:a|b){300}c') as RE2JS, meter);
    meter.begin(WORK_BUDGET, new WeakMap());
    const s = randomAb(400_000);
    const [, ms] = timed(() => expect(() => p.test(`${s}c`)).toThrow(WorkBudgetExceeded));
    meter.end();
    expect(ms).toBeLessThan(1000);
  });
});

describe('canonicalJson', () => {
  const previous = (value: unknown): string => {
    if (Array.isArray(value)) return `[${value.map(previous).join(',')}]`;
    if (value && typeof value === 'object') {
      return `{${Object.keys(value)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${previous((value as Record<string, unknown>)[k])}`)
        .join(',')}}`;
    }
    return JSON.stringify(value);
  };

  it('is byte-identical to the earlier implementation (stored idempotency fingerprints keep matching)', () => {
    const values = [
      null,
      0,
      -0,
      1.5e300,
      'é"\\\n\u2028',
      true,
      [],
      {},
      [1, [2, [3]]],
      { b: 1, a: { d: [null, { z: 1, y: 2 }], c: 'x' } },
      { '': 0, ' ': 1, '10': 2, '9': 3 },
    ];
    for (const v of values) expect(canonicalJson(v)).toBe(previous(v));
  });
});
