import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { createHash } from 'node:crypto';
import { compileBounded } from './bounded-compiler';
import { addLinearUniqueItems } from './bounded-keywords';
import { MAX_REPORTED_ERRORS, MAX_TRACKED_ERRORS, SCHEMA_LIMITS, WORK_BUDGET } from './limits';
import { checkSchemaCaps } from './schema-caps';
import { SchemaObject } from './schema-graph';
import { PatternCache } from './re2-engine';
import { ScopedLruCache, CacheLimits } from './validator-cache';
import { measureValue } from './value-caps';
import { TooManyErrors, WorkBudgetExceeded, WorkMeter } from './work-meter';

export interface SchemaError {
  /** JSON pointer of the offending part of the value ('/' for the value itself). */
  path: string;
  message: string;
}

export type JsonSchema = Record<string, unknown> | boolean;

/** A usable schema: the first-error validator, and the all-errors one once a value has failed. */
interface Usable {
  schema: SchemaObject | boolean;
  first: ValidateFunction;
  all: ValidateFunction | null;
  /** Estimated heap bytes with both validators compiled (measured: 4 KiB + 5 per source byte + 512 per subschema covers it). */
  weight: number;
}

type Compiled = Usable | { problem: string; weight: number };

/**
 * What one registration (or update) may compile, across all its schemas: checking a schema
 * compiles it, and compiling costs 0.2-0.5 ms a subschema before the fee is paid. Identical
 * schemas are checked once.
 */
export class SchemaBudget {
  readonly checked = new Map<string, string | null>();
  subschemasLeft: number;

  constructor(readonly maxSubschemas: number = SCHEMA_LIMITS.maxSubschemasPerAgent) {
    this.subschemasLeft = maxSubschemas;
  }
}

export interface SchemaValidatorOptions {
  budget?: number;
  cache?: CacheLimits;
}

const root = (message: string): SchemaError[] => [{ path: '/', message }];

/**
 * Bounded JSON Schema validation for agent-supplied schemas. Registration asks
 * `schemaProblem`; execution asks `validate(scope, schema, value)` with the agent id as scope.
 * Every schema compiles in its own Ajv (no shared `$id` namespace, nothing kept after the cache
 * drops it), into a cache bounded per scope and in total; every validation runs under a work
 * budget that stops it within one step of the limit.
 *
 * A value is checked in two passes: the first stops at the first error (Ajv's default, where
 * errors are few and cheap); only a failing value gets the second, which lists all errors as
 * before (allErrors) with what is left of the budget, and falls back to the first pass's errors
 * when listing them all would cost more.
 */
export class SchemaValidator {
  private readonly meter = new WorkMeter();
  private readonly patterns = new PatternCache(this.meter);
  private readonly cache: ScopedLruCache<Compiled>;
  private readonly budget: number;
  private metaSchema: Ajv | null = null;
  /** Work units the last validation was charged (benchmarks compare them with its time). */
  lastWorkUnits = 0;

  constructor(options: SchemaValidatorOptions = {}) {
    this.budget = options.budget ?? WORK_BUDGET;
    this.cache = new ScopedLruCache<Compiled>(options.cache);
  }

  /**
   * Null when the schema is accepted, else why not, as a phrase to follow "schema" ("is larger
   * than ..."). With a budget, the schema also counts against what its registration may compile.
   */
  schemaProblem(schema: unknown, budget?: SchemaBudget): string | null {
    const key = budget ? sourceOf(schema) : null;
    if (key !== null && budget!.checked.has(key)) return budget!.checked.get(key)!;
    const compiled = this.compile(schema, budget);
    const problem = 'problem' in compiled ? compiled.problem : null;
    if (key !== null) budget!.checked.set(key, problem);
    return problem;
  }

  /** Errors of `value` against `schema` (none when the schema is null), with `scope` naming whose cache holds it. */
  validate(scope: string, schema: JsonSchema | null | undefined, value: unknown): SchemaError[] {
    if (schema === null || schema === undefined) return [];
    const measured = measureValue(value);
    if ('problem' in measured) return root(`value ${measured.problem}`);
    const source = JSON.stringify(schema);
    const key = createHash('sha256').update(source).digest('base64');
    let compiled = this.cache.get(scope, key);
    if (!compiled) {
      compiled = this.compile(schema);
      this.cache.set(scope, key, compiled, compiled.weight);
    }
    if ('problem' in compiled) return root(`the schema cannot be used: it ${compiled.problem}`);
    return this.run(compiled, value, measured.keyCounts);
  }

  cacheStats(): { scopes: number; entries: number; bytes: number } {
    return this.cache.stats();
  }

  private compile(schema: unknown, budget?: SchemaBudget): Compiled {
    const caps = checkSchemaCaps(schema, (source) => {
      const p = this.patterns.get(source);
      return typeof p === 'string' ? p : null;
    });
    if (typeof caps === 'string') return { problem: caps, weight: 1024 };
    const weight = 4096 + 5 * JSON.stringify(schema).length + 512 * caps.nodes.length;
    if (budget) {
      if (caps.nodes.length > budget.subschemasLeft) {
        return {
          problem: `brings the subschemas of this agent's schemas over ${budget.maxSubschemas} (compiling them is paid before the registration fee)`,
          weight,
        };
      }
      budget.subschemasLeft -= caps.nodes.length;
    }
    const meta = this.metaProblem(schema as JsonSchema);
    if (meta) return { problem: meta, weight };
    try {
      return {
        schema: schema as SchemaObject | boolean,
        first: compileBounded(schema as SchemaObject | boolean, this.meter, this.patterns, false),
        all: null,
        weight,
      };
    } catch (err) {
      return { problem: `is not a valid JSON Schema: ${(err as Error).message}`, weight };
    }
  }

  /** Checked against the draft-07 meta-schema by an Ajv that compiles nothing else. */
  private metaProblem(schema: JsonSchema): string | null {
    if (typeof schema === 'boolean') return null;
    if (!this.metaSchema) {
      this.metaSchema = new Ajv({ strict: false, logger: false });
      addFormats(this.metaSchema);
      // The meta-schema's enum has uniqueItems over any items: Ajv's pairwise check is quadratic.
      addLinearUniqueItems(this.metaSchema, new WorkMeter());
    }
    try {
      return this.metaSchema.validateSchema(schema)
        ? null
        : `is not a valid JSON Schema: ${this.metaSchema.errorsText(this.metaSchema.errors, { dataVar: 'schema' })}`;
    } catch (err) {
      return `is not a valid JSON Schema: ${(err as Error).message}`;
    }
  }

  private run(c: Usable, value: unknown, keyCounts: WeakMap<object, number>): SchemaError[] {
    this.meter.begin(this.budget, keyCounts);
    try {
      try {
        if (c.first(value)) return [];
      } catch (err) {
        return root(`validation stopped: ${this.stopReason(err) ?? rethrow(err)}`);
      }
      const first = toSchemaErrors(c.first.errors);
      const notListed = (reason: string) => [...first, { path: '/', message: `further errors not listed: ${reason}` }];
      // Listing all errors repeats at least the first pass's work: skip it when that cannot fit.
      if (this.meter.spent() * 2 > this.budget) return notListed(this.stopReason(new WorkBudgetExceeded())!);
      try {
        c.all ??= compileBounded(c.schema, this.meter, this.patterns, true);
        return c.all(value) ? first : toSchemaErrors(c.all.errors);
      } catch (err) {
        return notListed(this.stopReason(err) ?? (err as Error).message);
      }
    } finally {
      this.lastWorkUnits = this.meter.spent();
      this.meter.end();
    }
  }

  /** Why a validation stopped, or null for an error that is not a bound (a bug, rethrown). */
  private stopReason(err: unknown): string | null {
    if (err instanceof WorkBudgetExceeded)
      return `checking this value against the schema costs more than the budget of ${this.budget} work units`;
    if (err instanceof TooManyErrors) return `the value has more than ${MAX_TRACKED_ERRORS} errors against the schema`;
    if (err instanceof RangeError) return err.message;
    return null;
  }
}

function rethrow(err: unknown): never {
  throw err;
}

/** The JSON of a schema, or null when it cannot be serialized (nested too deep for the stack). */
function sourceOf(schema: unknown): string | null {
  try {
    return JSON.stringify(schema) ?? null;
  } catch {
    return null;
  }
}

function toSchemaErrors(errors: ErrorObject[] | null | undefined): SchemaError[] {
  const all = errors ?? [];
  const out = all
    .slice(0, MAX_REPORTED_ERRORS)
    .map((e) => ({ path: e.instancePath || '/', message: e.message ?? 'invalid' }));
  if (all.length > MAX_REPORTED_ERRORS)
    out.push({ path: '/', message: `and ${all.length - MAX_REPORTED_ERRORS} more errors` });
  return out;
}
