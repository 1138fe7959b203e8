/**
 * An example value for a JSON schema, for x402 discovery (the body and output a Bazaar listing shows).
 * Bounded whatever the schema: at most MAX_DEPTH levels, MAX_KEYS properties per object, one array item,
 * MAX_NODES schema nodes visited in all, and a given example kept only when its JSON is at most
 * MAX_GIVEN_CHARS long. It prefers what the schema states (`examples[0]`, `const`, `default`, `enum[0]`),
 * else a placeholder of the schema's type.
 */
const MAX_DEPTH = 6;
const MAX_KEYS = 24;
const MAX_NODES = 256;
const MAX_GIVEN_CHARS = 2048;
const MAX_STRING = 64;

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v);

const FORMATS: Record<string, string> = {
  'date-time': '2025-01-01T00:00:00Z',
  date: '2025-01-01',
  time: '00:00:00Z',
  email: 'user@example.com',
  uri: 'https://example.com',
  url: 'https://example.com',
  uuid: '00000000-0000-4000-8000-000000000000',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  hostname: 'example.com',
};

/** A given value when its JSON is small enough (undefined: too big, or not JSON). */
function given(value: unknown): unknown {
  try {
    const json = JSON.stringify(value);
    return json !== undefined && json.length <= MAX_GIVEN_CHARS ? (JSON.parse(json) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

function stated(s: Schema): unknown {
  const candidates: unknown[] = [];
  if (Array.isArray(s.examples) && s.examples.length) candidates.push(s.examples[0]);
  if ('const' in s) candidates.push(s.const);
  if ('default' in s) candidates.push(s.default);
  if (Array.isArray(s.enum) && s.enum.length) candidates.push(s.enum[0]);
  for (const c of candidates) {
    const v = given(c);
    if (v !== undefined) return v;
  }
  return undefined;
}

function typeOf(s: Schema): string | undefined {
  const t = Array.isArray(s.type) ? (s.type as unknown[]).find((x) => x !== 'null') : s.type;
  if (typeof t === 'string') return t;
  if (isObject(s.properties)) return 'object';
  if (s.items !== undefined) return 'array';
  return undefined;
}

function placeholderString(s: Schema): string {
  if (typeof s.format === 'string' && FORMATS[s.format]) return FORMATS[s.format];
  const min = typeof s.minLength === 'number' ? Math.min(Math.max(s.minLength, 0), MAX_STRING) : 0;
  const max = typeof s.maxLength === 'number' ? Math.max(s.maxLength, 0) : MAX_STRING;
  const base = 'string'.padEnd(min, 'x');
  return base.slice(0, Math.max(min, Math.min(base.length, max)));
}

function placeholderNumber(s: Schema, integer: boolean): number {
  let n = 0;
  if (typeof s.minimum === 'number') n = s.minimum;
  else if (typeof s.exclusiveMinimum === 'number') n = s.exclusiveMinimum + 1;
  else if (typeof s.maximum === 'number' && s.maximum < 0) n = s.maximum;
  return integer ? Math.ceil(n) : n;
}

function walk(schema: unknown, depth: number, budget: { nodes: number }): unknown {
  if (!isObject(schema) || budget.nodes <= 0) return null;
  budget.nodes -= 1;
  const value = stated(schema);
  if (value !== undefined) return value;
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    const list = schema[key];
    if (Array.isArray(list) && list.length) return walk(list[0], depth, budget);
  }
  switch (typeOf(schema)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth >= MAX_DEPTH || !isObject(schema.properties)) return out;
      const props = schema.properties;
      const required = Array.isArray(schema.required) ? schema.required.filter((k) => typeof k === 'string') : [];
      const keys = [...new Set([...required, ...Object.keys(props)])].filter((k) => k in props).slice(0, MAX_KEYS);
      for (const k of keys) {
        if (budget.nodes <= 0) break;
        out[k] = walk(props[k], depth + 1, budget);
      }
      return out;
    }
    case 'array':
      return depth >= MAX_DEPTH || schema.items === undefined ? [] : [walk(schema.items, depth + 1, budget)];
    case 'string':
      return placeholderString(schema);
    case 'integer':
      return placeholderNumber(schema, true);
    case 'number':
      return placeholderNumber(schema, false);
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** An example value for `schema` (null for no schema or one it cannot read). */
export function exampleFromSchema(schema: unknown): unknown {
  return walk(schema, 0, { nodes: MAX_NODES });
}

/** An example JSON object for `schema` (`{}` when the example is not an object). */
export function exampleObject(schema: unknown): Record<string, unknown> {
  const v = exampleFromSchema(schema);
  return isObject(v) ? v : {};
}
