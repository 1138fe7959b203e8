import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { SCHEMA_LIMITS, VALUE_LIMITS } from './limits';
import { SchemaBudget, SchemaValidator } from './schema-validator';

/** Wall-clock sanity bound: the cases below took seconds to minutes with a plain global Ajv. */
function timed<T>(f: () => T): [T, number] {
  const t0 = process.hrtime.bigint();
  const r = f();
  return [r, Number(process.hrtime.bigint() - t0) / 1e6];
}

describe('SchemaValidator: ordinary schemas validate as with plain Ajv', () => {
  const schema = {
    type: 'object',
    properties: {
      text: { type: 'string', minLength: 1, maxLength: 20 },
      lang: { enum: ['en', 'fr', 'es'] },
      count: { type: 'integer', minimum: 0, maximum: 5 },
      email: { type: 'string', format: 'email' },
      when: { type: 'string', format: 'date-time' },
      code: { type: 'string', pattern: '^[A-Z]{3}-\\d{2}$' },
      tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, maxItems: 3 },
      nested: {
        type: 'object',
        properties: { a: { $ref: '#/definitions/pos' } },
        required: ['a'],
        additionalProperties: false,
      },
    },
    required: ['text', 'lang'],
    additionalProperties: false,
    definitions: { pos: { type: 'number', exclusiveMinimum: 0 } },
  };
  const plain = new Ajv({ allErrors: true, strict: false });
  addFormats(plain);
  const reference = plain.compile(schema);
  const v = new SchemaValidator();
  const values: unknown[] = [
    { text: 'hello', lang: 'en' },
    {
      text: 'hello',
      lang: 'en',
      count: 3,
      email: 'a@b.co',
      when: '2024-01-02T03:04:05Z',
      code: 'ABC-12',
      tags: ['a', 'b'],
      nested: { a: 1.5 },
    },
    { text: '', lang: 'de', count: 7.5, extra: true },
    {
      text: 'x'.repeat(30),
      lang: 'fr',
      email: 'not-an-email',
      when: 'yesterday',
      code: 'abc-12',
      tags: ['a', 'a', 'b', 'c'],
    },
    { text: 'ok', lang: 'es', nested: { a: -1, b: 2 } },
    { lang: 3 },
    'not an object',
    null,
  ];

  it.each(values.map((value, i) => [i, value]))(
    'value %i: same verdict and the same errors, with path and message',
    (_i, value) => {
      const expected = reference(value)
        ? []
        : reference.errors!.map((e) => ({ path: e.instancePath || '/', message: e.message }));
      expect(v.validate('agent-1', schema, value)).toEqual(expected);
    },
  );

  it('accepts the schema at registration and returns [] without a schema', () => {
    expect(v.schemaProblem(schema)).toBeNull();
    expect(v.validate('agent-1', null, { anything: [1, 2, 3] })).toEqual([]);
  });
});

describe('SchemaValidator: hostile patterns', () => {
  const v = new SchemaValidator();

  it('answers a catastrophic-backtracking pattern at once (Ajv on RegExp: minutes)', () => {
    const schema = { type: 'string', pattern: '^(a+)+$' };
    expect(v.schemaProblem(schema)).toBeNull();
    const [errors, ms] = timed(() => v.validate('a', schema, `${'a'.repeat(40)}!`));
    expect(errors).toEqual([{ path: '/', message: 'must match pattern "^(a+)+$"' }]);
    expect(v.validate('a', schema, 'a'.repeat(40))).toEqual([]);
    expect(ms).toBeLessThan(1000);
  });

  it('runs patternProperties and propertyNames patterns on RE2 too', () => {
    const schema = {
      type: 'object',
      patternProperties: { '^(x+x+)+y$': { type: 'number' } },
      propertyNames: { pattern: '^(\\w+\\s?)*$' },
    };
    const key = `${'x'.repeat(40)}y`;
    const [errors, ms] = timed(() => v.validate('a', schema, { [key]: 'not a number', [`${'ab '.repeat(20)}!`]: 1 }));
    expect(errors.map((e) => e.message)).toContain('must be number');
    expect(ms).toBeLessThan(1000);
  });

  it.each([
    ['a backreference', '(a)\\1'],
    ['a lookahead', 'foo(?=bar)'],
    ['a negative lookahead', '^(?!admin).*$'],
    ['a lookbehind', '(?<=\\$)\\d+'],
  ])('refuses %s at registration with a clear message', (_what, pattern) => {
    expect(v.schemaProblem({ type: 'object', properties: { p: { type: 'string', pattern } } })).toMatch(
      new RegExp(
        `^has a pattern ".*" at /properties/p that cannot run in linear time .*no backreferences, lookahead or lookbehind$`,
      ),
    );
  });

  it('refuses patterns that are too long or too complex', () => {
    expect(v.schemaProblem({ pattern: 'a'.repeat(SCHEMA_LIMITS.maxPatternLength + 1) })).toMatch(
      /is longer than 512 characters/,
    );
    expect(v.schemaProblem({ pattern: '(?:\\w+\\s?){1,300}' })).toMatch(
      /is too complex: an RE2 program of \d+ instructions \(at most 500\)/,
    );
    const many = Object.fromEntries(Array.from({ length: SCHEMA_LIMITS.maxPatterns + 1 }, (_, i) => [`^k${i}$`, true]));
    expect(v.schemaProblem({ patternProperties: many })).toBe(
      'has more than 16 patterns (pattern and patternProperties)',
    );
  });
});

describe('SchemaValidator: uniqueItems in linear time', () => {
  const v = new SchemaValidator();
  const schema = { type: 'array', uniqueItems: true };

  it('checks 100,000 distinct items fast and finds a duplicate among them (Ajv: quadratic, minutes)', () => {
    const items = Array.from({ length: 100_000 }, (_, i) => i);
    const [ok, ms] = timed(() => v.validate('a', schema, items));
    expect(ok).toEqual([]);
    expect(ms).toBeLessThan(1000);
    items.push(4242);
    const [errors, msDup] = timed(() => v.validate('a', schema, items));
    expect(errors[0]).toEqual({
      path: '/',
      message: 'must NOT have duplicate items (items ## 4242 and 100000 are identical)',
    });
    expect(msDup).toBeLessThan(1000);
    // Listing every error (a second pass) would not fit in the budget after this one: said so.
    expect(errors.slice(1)).toEqual([{ path: '/', message: expect.stringMatching(/^further errors not listed: /) }]);
    expect(v.validate('a', schema, [...items.slice(0, 1000), 999])[0].message).toBe(
      'must NOT have duplicate items (items ## 999 and 1000 are identical)',
    );
  });

  it('reports the pair Ajv reports, objects equal whatever their key order', () => {
    const plain = new Ajv({ allErrors: true, strict: false });
    const cases: [Record<string, unknown>, unknown[]][] = [
      [schema, [1, 2, 3, 2, 1]],
      [schema, [{ a: 1, b: [1, { c: 2 }] }, 'x', { b: [1, { c: 2 }], a: 1 }]],
      [schema, [1, '1', [1], { 1: 1 }, null, true, 'true']],
      [{ type: 'array', items: { type: 'integer' }, uniqueItems: true }, [1, 2, 3, 2, 1]],
      [{ type: 'array', items: { type: ['string', 'null'] }, uniqueItems: true }, ['a', 1, 1, null, 'b', null]],
      [{ type: 'array', items: { type: 'string' }, uniqueItems: true }, [1, 1, 'a']],
    ];
    for (const [s, value] of cases) {
      const reference = plain.compile(s);
      const expected = reference(value)
        ? []
        : reference.errors!.map((e) => ({ path: e.instancePath || '/', message: e.message }));
      expect(v.validate('a', s, value)).toEqual(expected);
    }
  });
});

describe('SchemaValidator: no shared $id namespace', () => {
  it('compiles two schemas with the same $id, each resolving its own references', () => {
    const v = new SchemaValidator();
    const a = { $id: 'x', definitions: { s: { type: 'string' } }, $ref: '#/definitions/s' };
    const b = { $id: 'x', definitions: { s: { type: 'number' } }, $ref: '#/definitions/s' };
    expect(v.schemaProblem(a)).toBeNull();
    expect(v.schemaProblem(b)).toBeNull();
    expect(v.validate('agent-a', a, 'text')).toEqual([]);
    expect(v.validate('agent-b', b, 5)).toEqual([]);
    expect(v.validate('agent-b', b, 'text')).toEqual([{ path: '/', message: 'must be number' }]);
    expect(v.validate('agent-a', a, 5)).toEqual([{ path: '/', message: 'must be string' }]);
    // Same scope, same $id: still two schemas.
    expect(v.validate('agent-a', b, 5)).toEqual([]);
  });

  it('refuses references that leave the schema, and $id below the root', () => {
    const v = new SchemaValidator();
    expect(v.schemaProblem({ $ref: 'x#/definitions/s' })).toBe(
      'has a remote $ref "x#/definitions/s": only local references ("#" or "#/...") into the same schema are allowed',
    );
    expect(v.schemaProblem({ properties: { a: { $ref: 'https://evil.example/schema.json' } } })).toMatch(
      /^has a remote \$ref/,
    );
    expect(v.schemaProblem({ $ref: '#/definitions/missing' })).toBe(
      'has a $ref "#/definitions/missing" that does not point to a subschema of this schema',
    );
    expect(v.schemaProblem({ properties: { a: { $id: 'y', type: 'string' } } })).toBe(
      'declares $id at /properties/a (only the root may have one)',
    );
    expect(v.schemaProblem({ $ref: '#' })).toBe(
      'has a $ref cycle at / that applies a subschema to the same value forever',
    );
    expect(v.schemaProblem({ type: 'array', items: { $ref: '#' } })).toBeNull();
  });
});

describe('SchemaValidator: caps refuse with messages', () => {
  const v = new SchemaValidator();
  const fill = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

  it.each([
    [
      'too large',
      { description: 'x'.repeat(SCHEMA_LIMITS.maxBytes) },
      /^is larger than 32768 bytes serialized \(\d+\)$/,
    ],
    ['too deep', JSON.parse(`${'{"not":'.repeat(40)}{}${'}'.repeat(40)}`), /^nests deeper than 32 levels$/],
    ['too many subschemas', { anyOf: fill(SCHEMA_LIMITS.maxSubschemas, () => ({})) }, /^has more than 128 subschemas$/],
    [
      'too many keywords',
      { allOf: fill(50, () => Object.fromEntries(fill(11, (i) => [`k${i}`, 1]))) },
      /^has more than 512 keywords$/,
    ],
    [
      'an exponential $ref fan-out',
      {
        definitions: Object.fromEntries(
          fill(30, (i) => [
            `d${i}`,
            i === 0
              ? { type: 'string' }
              : { allOf: [{ $ref: `#/definitions/d${i - 1}` }, { $ref: `#/definitions/d${i - 1}` }] },
          ]),
        ),
        $ref: '#/definitions/d29',
      },
      /^applies too many subschemas to one value at \/definitions\/d\d+/,
    ],
    ['$async', { $async: true, type: 'object' }, /^uses \$async/],
    [
      'not JSON Schema',
      { type: 'bogus' },
      /^is not a valid JSON Schema: schema\/type must be equal to one of the allowed values/,
    ],
    ['not an object', [1, 2], /^must be a JSON object$/],
  ])('%s', (_what, schema, message) => {
    expect(v.schemaProblem(schema)).toMatch(message);
  });

  it('refuses values over the value limits before validating them', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(v.validate('a', { type: 'array' }, deep)).toEqual([
      { path: '/', message: `value nests deeper than ${VALUE_LIMITS.maxDepth} levels` },
    ]);
    expect(
      v.validate(
        'a',
        {},
        fill(VALUE_LIMITS.maxNodes, () => 0),
      ),
    ).toEqual([{ path: '/', message: 'value has more than 250000 JSON values' }]);
    expect(v.validate('a', {}, Object.fromEntries(fill(VALUE_LIMITS.maxObjectKeys + 1, (i) => [`k${i}`, 0])))).toEqual([
      { path: '/', message: 'value has an object with more than 10000 keys' },
    ]);
  });

  it('bounds what one registration compiles, checking identical schemas once', () => {
    const budget = new SchemaBudget(150);
    const big = { anyOf: fill(100, () => ({ type: 'string' })) };
    expect(v.schemaProblem(big, budget)).toBeNull();
    expect(v.schemaProblem(big, budget)).toBeNull();
    expect(v.schemaProblem({ ...big, title: 'another' }, budget)).toMatch(
      /^brings the subschemas of this agent's schemas over 150 /,
    );
  });
});
