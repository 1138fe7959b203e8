/* Adversarial schema/value pairs for npm run bench:schema: every schema passes the schema caps,
   every value serializes under the 1 MiB body limit. Each targets one way validation time grows
   superlinearly or by a large factor: backtracking patterns, RE2 DFA state explosions, quadratic
   uniqueItems, exponential $ref/anyOf recursion, error lists Ajv copies, wide unions over big
   arrays, formats on long strings, keyword loops over many keys. */

export interface SchemaCase {
  name: string;
  schema: Record<string, unknown>;
  /** Built on demand, so one case's garbage does not land in another's timing. */
  value: () => unknown;
}

export const MiB = 1024 * 1024;

/** Deterministic pseudo-random string over an alphabet. */
export function rnd(alphabet: string, n: number, seed = 12345): string {
  let x = seed;
  let s = '';
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    s += alphabet[(x >> 8) % alphabet.length];
  }
  return s;
}

export const fill = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
export const defs = (n: number, f: (i: number) => unknown) => Object.fromEntries(fill(n, (i) => [`d${i}`, f(i)]));

export function chain(depth: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

export function nested(depth: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = [v, v];
  return v;
}

export function schemaCorpus(): SchemaCase[] {
  const big = MiB - 64;
  return [
    {
      name: 'redos (a+)+$ on 1 MiB',
      schema: { type: 'string', pattern: '^(a+)+$' },
      value: () => `${'a'.repeat(big)}!`,
    },
    {
      name: 'redos (a+)+$ x 20k strings',
      schema: { type: 'array', items: { type: 'string', pattern: '^(a+)+$' } },
      value: () => fill(20_000, () => `${'a'.repeat(40)}!`),
    },
    {
      name: 'redos (\\w+\\s?)*$ on 1 MiB',
      schema: { type: 'string', pattern: '^(\\w+\\s?)*$' },
      value: () => `${'word '.repeat(big / 5)}!`,
    },
    {
      name: 're2 DFA explosion {20}',
      schema: { type: 'string', pattern: '(?:a|b)*a(?:a|b){20}c' },
      value: () => `${rnd('ab', big)}c`,
    },
    {
      name: 're2 DFA explosion {300}',
      schema: { type: 'string', pattern: '(?:a|b)*a(?:a|b){300}c' },
      value: () => `${rnd('ab', big)}c`,
    },
    {
      name: 're2 DFA explosion {20} 512K',
      schema: { type: 'string', pattern: '(?:a|b)*a(?:a|b){20}c' },
      value: () => `${rnd('ab', MiB / 2)}c`,
    },
    {
      name: 're2 DFA explosion {300} 512K',
      schema: { type: 'string', pattern: '(?:a|b)*a(?:a|b){300}c' },
      value: () => `${rnd('ab', MiB / 2)}c`,
    },
    {
      name: 're2 explosion x 1000 strings',
      schema: { type: 'array', items: { type: 'string', pattern: '(?:a|b)*a(?:a|b){200}c' } },
      value: () => fill(1000, (i) => `${rnd('ab', 1000, i)}c`),
    },
    {
      name: 're2 16 patterns x 1 MiB',
      schema: { type: 'string', allOf: fill(16, (i) => ({ pattern: `(?:a|b)*a(?:a|b){${10 + i}}c` })) },
      value: () => `${rnd('ab', big)}c`,
    },
    {
      name: 'uniqueItems 100k numbers',
      schema: { type: 'array', uniqueItems: true },
      value: () => fill(100_000, (i) => i),
    },
    {
      name: 'uniqueItems 75k objects',
      schema: { type: 'array', uniqueItems: true },
      value: () => fill(75_000, (i) => ({ id: i })),
    },
    {
      name: 'uniqueItems 60k arrays',
      schema: { type: 'array', uniqueItems: true },
      value: () => fill(60_000, (i) => [i % 7, i]),
    },
    {
      name: 'uniqueItems 80k [1,1] errors',
      schema: { type: 'array', items: { type: 'array', uniqueItems: true } },
      value: () => fill(80_000, () => [1, 1]),
    },
    {
      name: 'uniqueItems strings 100k',
      schema: { type: 'array', items: { type: 'string' }, uniqueItems: true },
      value: () => fill(100_000, (i) => `s${i}`),
    },
    {
      name: '$ref in items, 250k failing',
      schema: { definitions: { x: { type: 'string' } }, type: 'array', items: { $ref: '#/definitions/x' } },
      value: () => fill(249_000, () => 0),
    },
    {
      name: 'recursive anyOf x3, depth 60',
      schema: {
        anyOf: [
          { type: 'array', items: { $ref: '#' } },
          { type: 'array', items: { $ref: '#' } },
          { type: 'array', items: { $ref: '#' } },
          { type: 'number' },
        ],
      },
      value: () => chain(60, 'x'),
    },
    {
      name: 'recursive tree 2^16 leaves',
      schema: { anyOf: [{ type: 'array', items: { $ref: '#' } }, { type: 'string' }] },
      value: () => nested(16, 1),
    },
    {
      name: '$ref fan-out 2^10 x 100k',
      schema: {
        definitions: defs(11, (i) =>
          i === 0
            ? { type: 'string' }
            : { allOf: [{ $ref: `#/definitions/d${i - 1}` }, { $ref: `#/definitions/d${i - 1}` }] },
        ),
        type: 'array',
        items: { $ref: '#/definitions/d10' },
      },
      value: () => fill(100_000, () => 1),
    },
    {
      name: 'anyOf 40 objects x 150k',
      schema: {
        type: 'array',
        items: {
          anyOf: fill(40, (i) => ({
            type: 'object',
            required: [`k${i}`],
            properties: { [`k${i}`]: { type: 'string' } },
          })),
        },
      },
      value: () => fill(150_000, () => ({})),
    },
    {
      name: 'oneOf 40 x 150k numbers',
      schema: { type: 'array', items: { oneOf: fill(40, (i) => ({ multipleOf: i + 2 })) } },
      value: () => fill(150_000, (i) => i * 2),
    },
    {
      name: 'properties 120 x 100k objects',
      schema: {
        type: 'array',
        items: { type: 'object', properties: Object.fromEntries(fill(120, (i) => [`p${i}`, { type: 'string' }])) },
      },
      value: () => fill(100_000, () => ({})),
    },
    {
      name: 'required 1500 x 50k objects',
      schema: { type: 'array', items: { required: fill(1500, (i) => `p${i}`) } },
      value: () => fill(50_000, () => ({})),
    },
    {
      name: 'enum 2500 x 100k',
      schema: { type: 'array', items: { enum: fill(2500, (i) => `v${i}`) } },
      value: () => fill(100_000, (i) => `v${2499 - (i % 3)}`),
    },
    {
      name: 'const object x 100k',
      schema: { type: 'array', items: { const: Object.fromEntries(fill(1000, (i) => [`k${i}`, i])) } },
      value: () => fill(100_000, () => ({ k0: 0 })),
    },
    {
      name: 'format uri 120 x 8 KiB',
      schema: { type: 'array', items: { type: 'string', format: 'uri' } },
      value: () => fill(120, (i) => `a://a@${'a'.repeat(8180)}[${i}`),
    },
    {
      name: 'format url 500 x 2 KiB',
      schema: { type: 'array', items: { type: 'string', format: 'url' } },
      value: () => fill(500, () => `ftp://a.${':'.repeat(2030)}!`),
    },
    {
      name: 'format date-time 1 MiB',
      schema: { type: 'string', format: 'date-time' },
      value: () => `0${' '.repeat(big)}@`,
    },
    {
      name: 'format byte 1 MiB',
      schema: { type: 'string', format: 'byte' },
      value: () => `${'ab'.repeat(big / 2)}\u0000`,
    },
    {
      name: 'formats x32 on 1 MiB',
      schema: { type: 'string', allOf: fill(32, () => ({ format: 'uri-reference' })) },
      value: () => `http://${'a'.repeat(big)}`,
    },
    {
      name: 'minLength x120 on 1 MiB',
      schema: { type: 'string', anyOf: fill(120, (i) => ({ minLength: big + i })) },
      value: () => 'a'.repeat(big),
    },
    {
      name: 'patternProperties 16 x 6 x 9.5k keys',
      schema: {
        type: 'array',
        items: {
          type: 'object',
          patternProperties: Object.fromEntries(fill(16, (i) => [`^k(?:a|b)*a(?:a|b){${8 + i}}$`, { type: 'number' }])),
        },
      },
      value: () => fill(6, (j) => Object.fromEntries(fill(9_500, (i) => [`k${rnd('ab', 10, i + j * 10_000)}`, 'x']))),
    },
    {
      name: 'additionalProperties false 9 x 9.5k',
      schema: { type: 'array', items: { type: 'object', properties: { a: {} }, additionalProperties: false } },
      value: () => fill(9, (j) => Object.fromEntries(fill(9_500, (i) => [`k${i}`, j]))),
    },
    {
      name: 'propertyNames pattern 7 x 9.5k',
      schema: { type: 'array', items: { propertyNames: { pattern: '^(a+)+$', maxLength: 20 } } },
      value: () => fill(7, (j) => Object.fromEntries(fill(9_500, (i) => [`aaaa${i}!`, j]))),
    },
    {
      name: 'contains never x 250k',
      schema: { type: 'array', contains: { type: 'string', minLength: 2 } },
      value: () => fill(249_000, () => 0),
    },
    {
      name: 'items tuple + additionalItems 200k',
      schema: {
        type: 'array',
        items: fill(50, () => ({ type: 'number' })),
        additionalItems: { type: 'object', additionalProperties: false },
      },
      value: () => fill(200_000, () => 'x'),
    },
    {
      name: 'dependencies 24 x 20 on 9.5k keys',
      schema: {
        type: 'array',
        items: { dependencies: Object.fromEntries(fill(24, (i) => [`${i}`, fill(20, (j) => `m${j}`)])) },
      },
      value: () => fill(8, () => Object.fromEntries(fill(9_500, (i) => [`${i}`, 0]))),
    },
    { name: 'value walk only, 249k nodes', schema: {}, value: () => fill(124_000, () => [0]) },
    {
      name: 'object of 90k keys (refused)',
      schema: { type: 'object' },
      value: () => Object.fromEntries(fill(90_000, (i) => [`k${i}`, 0])),
    },
    {
      name: 'if/then/else x 150k',
      schema: {
        type: 'array',
        items: { if: { type: 'number' }, then: { minimum: 10, multipleOf: 3 }, else: { type: 'string' } },
      },
      value: () => fill(150_000, (i) => i),
    },
  ];
}
