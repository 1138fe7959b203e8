/* The schema corpus's caps part for npm run bench:schema: the largest schemas the caps allow (compile
   time), and the hostile input schemas of the agent the bench registers. */
import { fill, MiB, rnd, chain, defs } from './schema-corpus';

/** The largest schemas the caps allow, by what makes compiling them slow; `invalid` fails each (so both passes compile). */
export function compileCorpus(): { name: string; schema: Record<string, unknown>; invalid: unknown }[] {
  return [
    {
      name: '126 properties x 3 keywords',
      schema: {
        type: 'object',
        properties: Object.fromEntries(fill(126, (i) => [`p${i}`, { type: 'string', minLength: 1, maxLength: 50 }])),
      },
      invalid: { p0: 1 },
    },
    {
      name: 'anyOf 127 const objects',
      schema: { anyOf: fill(127, (i) => ({ const: { a: i, b: [i, i + 1] } })) },
      invalid: 0,
    },
    {
      name: '25 recursive definitions',
      schema: {
        definitions: defs(25, (i) => ({
          anyOf: [
            i < 24 ? { $ref: `#/definitions/d${i + 1}` } : { type: 'number' },
            { type: 'array', items: { $ref: `#/definitions/d${(i + 7) % 25}` } },
          ],
        })),
        type: 'array',
        items: { $ref: '#/definitions/d0' },
      },
      invalid: [[[0]]],
    },
    {
      name: '16 patterns, programs ~400',
      schema: {
        type: 'object',
        patternProperties: Object.fromEntries(
          fill(16, (i) => [`^[a-z]{1,${40 + i}}(?:_[a-z0-9]{1,20}){0,4}$`, { type: 'string' }]),
        ),
      },
      invalid: { ab_cd: 1 },
    },
    { name: 'enum of 2,500 strings', schema: { enum: fill(2500, (i) => `value-${i}`) }, invalid: 'nope' },
    {
      name: 'required: 100 x 30 names',
      schema: { type: 'object', allOf: fill(100, (i) => ({ required: fill(30, (j) => `r${i}_${j}`) })) },
      invalid: {},
    },
  ];
}

/**
 * Input schemas of the agent registered in part (b), each with a hostile input of at most 20 KiB
 * (enough to block plain Ajv for a tenth of a second to hours) and one near the 1 MiB body limit. `control`
 * has no schema: what a big body costs the request pipeline before and besides validation.
 */
export function hostileCapabilities(): {
  id: string;
  schema?: Record<string, unknown>;
  small: () => Record<string, unknown>;
  large: () => Record<string, unknown>;
}[] {
  const obj = (key: string, schema: unknown) => ({ type: 'object', properties: { [key]: schema }, required: [key] });
  const list = (n: number, f: (i: number) => unknown) => () => ({ list: fill(n, f) });
  const redos = `${'a'.repeat(40)}!`;
  const tree = {
    anyOf: [...fill(3, () => ({ type: 'array', items: { $ref: '#/definitions/t' } })), { type: 'number' }],
  };
  return [
    {
      id: 'redos',
      schema: obj('text', { type: 'string', pattern: '^(a+)+$' }),
      small: () => ({ text: redos }),
      large: () => ({ text: `${'a'.repeat(MiB - 200)}!` }),
    },
    {
      id: 'redos-strings',
      schema: obj('list', { type: 'array', items: { type: 'string', pattern: '^(a+)+$' } }),
      small: list(400, () => redos),
      large: list(20_000, () => redos),
    },
    {
      id: 'dfa-explosion',
      schema: obj('text', { type: 'string', pattern: '(?:a|b)*a(?:a|b){300}c' }),
      small: () => ({ text: `${rnd('ab', 16_000)}c` }),
      large: () => ({ text: `${rnd('ab', 500_000)}c` }),
    },
    {
      id: 'unique-numbers',
      schema: obj('list', { type: 'array', uniqueItems: true }),
      small: list(3_000, (i) => i),
      large: list(100_000, (i) => i),
    },
    {
      id: 'unique-objects',
      schema: obj('list', { type: 'array', uniqueItems: true }),
      small: list(1_500, (i) => ({ id: i })),
      large: list(60_000, (i) => ({ id: i })),
    },
    {
      id: 'anyOf-recursion',
      schema: { ...obj('tree', { $ref: '#/definitions/t' }), definitions: { t: tree } },
      small: () => ({ tree: chain(60, 'x') }),
      large: () => ({ tree: chain(60, 'x') }),
    },
    {
      id: 'wide-anyOf',
      schema: obj('list', {
        type: 'array',
        items: { anyOf: fill(40, (i) => ({ type: 'object', required: [`k${i}`] })) },
      }),
      small: list(5_000, () => ({})),
      large: list(150_000, () => ({})),
    },
    {
      id: 'ref-items',
      schema: {
        ...obj('list', { type: 'array', items: { $ref: '#/definitions/s' } }),
        definitions: { s: { type: 'string' } },
      },
      small: list(8_000, () => 0),
      large: list(200_000, () => 0),
    },
    {
      id: 'url',
      schema: obj('list', { type: 'array', items: { type: 'string', format: 'url' } }),
      small: list(8, () => `ftp://a.${':'.repeat(2030)}!`),
      large: list(500, () => `ftp://a.${':'.repeat(2030)}!`),
    },
    {
      id: 'properties-120',
      schema: obj('list', {
        type: 'array',
        items: { type: 'object', properties: Object.fromEntries(fill(120, (i) => [`p${i}`, { type: 'string' }])) },
      }),
      small: list(5_000, () => ({})),
      large: list(100_000, () => ({})),
    },
    {
      id: 'keys',
      schema: obj('list', {
        type: 'array',
        items: { type: 'object', properties: { a: {} }, additionalProperties: false },
      }),
      small: list(1, (j) => Object.fromEntries(fill(1_500, (i) => [`k${i}`, j]))),
      large: list(9, (j) => Object.fromEntries(fill(9_500, (i) => [`k${i}`, j]))),
    },
    { id: 'control-no-schema', small: list(5_000, () => ({})), large: list(150_000, () => ({})) },
  ];
}
