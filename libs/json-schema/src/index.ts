import { SchemaBudget, SchemaValidator } from './schema-validator';
import { measureValue } from './value-caps';
import type { JsonSchema, SchemaError } from './schema-validator';

export { canonicalJson } from './canonical-json';
export { SchemaBudget } from './schema-validator';

/** The process-wide validator behind the two functions below. */
export const schemaValidator = new SchemaValidator();

/**
 * Registration: null when an agent-supplied JSON Schema is accepted, else why not, as a phrase
 * to follow the field name ("inputSchema has a remote $ref ..."). Pass one SchemaBudget for all
 * the schemas of a registration: it bounds what they compile together. Nothing is cached.
 */
export function schemaProblem(schema: unknown, budget?: SchemaBudget): string | null {
  return schemaValidator.schemaProblem(schema, budget);
}

/**
 * Execution: the errors of `value` against `schema`, each `{path, message}` ([] when valid or when
 * the schema is null), bounded in time by the value limits and the work budget. `scope` is the
 * agent id: the compiled schema is cached under it (bounded LRU, see CACHE_LIMITS).
 */
export function validateValue(scope: string, schema: JsonSchema | null | undefined, value: unknown): SchemaError[] {
  return schemaValidator.validate(scope, schema, value);
}

/**
 * Why a JSON value is too big to take (deeper than VALUE_LIMITS.maxDepth, more values or object
 * keys than allowed), as a phrase to follow "value"; null when it is within the limits. Bounded:
 * a value nested 100,000 deep is refused at the limit, not by a stack overflow.
 */
export function valueProblem(value: unknown): string | null {
  const measured = measureValue(value);
  return 'problem' in measured ? measured.problem : null;
}
// Tests only: no production code imports these (a test reaches a lib through its barrel).
export { WORK_BUDGET } from './limits';
export { SchemaValidator } from './schema-validator';
