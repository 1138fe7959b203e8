/**
 * The bounds on agent-supplied JSON Schemas and on the values checked against them. A schema is
 * refused at registration when it breaks a schema limit; a value is refused (as a validation
 * error) when it breaks a value limit or when checking it would cost more than the work budget.
 * docs/decisions.md says why these numbers.
 */
export const SCHEMA_LIMITS = {
  /** Serialized size (UTF-8 bytes of JSON.stringify). */
  maxBytes: 32 * 1024,
  /** JSON nesting depth of the schema document. */
  maxDepth: 32,
  /** Subschemas (objects and booleans in schema positions, root included): Ajv generates code for each (0.2-0.5 ms). */
  maxSubschemas: 128,
  /** Keywords summed over every subschema (a dependency's property names count as keywords). */
  maxKeywords: 512,
  /** Subschemas of all the schemas one registration or update compiles (SchemaBudget). */
  maxSubschemasPerAgent: 512,
  /** `pattern` keywords plus `patternProperties` keys (each compiles to an RE2 program, ~1 ms). */
  maxPatterns: 16,
  /** Characters of one pattern's source. */
  maxPatternLength: 512,
  /** RE2 program size of one pattern (instructions; `^[a-z0-9_-]{3,64}$` is about 130). */
  maxPatternProgram: 500,
} as const;

export const VALUE_LIMITS = {
  /** Nesting depth of a validated value (the root is depth 0). */
  maxDepth: 64,
  /** JSON values in a validated value, containers and keys' values included. */
  maxNodes: 250_000,
  /** Keys of one object: V8 enumerates a big object's keys at up to ~600 ns each. */
  maxObjectKeys: 10_000,
} as const;

/**
 * Work budget of one validation, in units calibrated by test/bench/schema-bench.ts to about a
 * nanosecond each of the worst work measured (a validation stopped at the budget took 10-20 ms on
 * the 2-core reference machine): every subschema evaluation, string scan, key and item loop,
 * regular-expression step, format check and uniqueItems item is charged before it runs.
 */
export const WORK_BUDGET = 15_000_000;

/** Errors returned by one validation; the rest are summarized in one last entry. */
export const MAX_REPORTED_ERRORS = 100;

/** Errors a validation may collect before it stops (each is an object Ajv keeps and copies). */
export const MAX_TRACKED_ERRORS = 1_000;

/**
 * Compiled-validator cache: scopes (agents), entries per scope (an agent has at most 100
 * schemas), and the estimated heap bytes of all entries (the largest schema accepted, 32 KiB
 * with 128 subschemas, is estimated at 228 KiB with both of its validators compiled).
 */
export const CACHE_LIMITS = {
  maxScopes: 1_024,
  maxEntriesPerScope: 128,
  maxTotalBytes: 32 * 1024 * 1024,
} as const;
