import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { createHash } from 'node:crypto';

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const compiled = new Map<string, ValidateFunction>();

export interface SchemaError {
  path: string;
  message: string;
}

/** Validates a value against a JSON Schema; compiled schemas are cached by content. */
export function validateAgainst(schema: Record<string, unknown> | null, value: unknown): SchemaError[] {
  if (!schema) return [];
  const key = createHash('sha256').update(JSON.stringify(schema)).digest('hex');
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    if (compiled.size > 5_000) compiled.clear();
    compiled.set(key, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => ({ path: e.instancePath || '/', message: e.message ?? 'invalid' }));
}

/** JSON with object keys sorted, so equal inputs hash equally (idempotency fingerprints). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
