import { validateValue } from '@app/json-schema';
import type { SchemaError } from '@app/json-schema';

export { canonicalJson } from '@app/json-schema';
export type { SchemaError } from '@app/json-schema';

/**
 * Validates a value against a capability's JSON Schema, bounded in time and memory by
 * @app/json-schema (linear patterns and uniqueItems, value caps, a work budget). `scope` is the
 * agent id: the compiled schema is cached under it (an LRU bounded per agent and in total).
 * Errors are `{path, message}`; [] when the schema is null.
 */
export function validateAgainst(schema: Record<string, unknown> | null, value: unknown, scope: string): SchemaError[] {
  return validateValue(scope, schema, value);
}
