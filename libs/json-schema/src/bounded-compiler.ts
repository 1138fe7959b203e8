import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { addBoundedKeywords, METER_KEYWORD } from './bounded-keywords';
import { boundedFormats } from './bounded-formats';
import { PatternCache } from './re2-engine';
import { ownCost } from './schema-caps';
import { buildSchemaGraph, SchemaGraph, SchemaObject } from './schema-graph';
import { COSTS, WorkMeter } from './work-meter';

/** What the injected keyword charges for one evaluation: [own, perChar, perKey, perItem, perError]. */
function meterParams(s: SchemaObject, own: number, allErrors: boolean): number[] {
  const has = (k: string) => s[k] !== undefined;
  const props = s.properties && typeof s.properties === 'object' ? Object.keys(s.properties).length : 0;
  const loopsKeys = has('additionalProperties') || has('patternProperties') || has('propertyNames');
  const loopsItems = has('items') || has('additionalItems') || has('contains');
  // A $ref is a function call whose errors Ajv concatenates to the caller's; so are uniqueItems' errors.
  const joinsErrors = has('$ref') || s.uniqueItems === true;
  return [
    own + (has('$ref') ? COSTS.refCall : 0),
    has('minLength') || has('maxLength') ? COSTS.lengthChar : 0,
    loopsKeys ? (COSTS.key + (allErrors ? COSTS.error : 0)) * (1 + Math.min(8, props)) : 0,
    loopsItems ? COSTS.item : 0,
    joinsErrors ? COSTS.errorCopy : 0,
  ];
}

/** A copy of the schema with the metering keyword in every subschema (the original is left alone). */
function instrument(schema: SchemaObject | boolean, allErrors: boolean): SchemaObject | boolean {
  const copy = JSON.parse(JSON.stringify(schema)) as SchemaObject | boolean;
  const graph = buildSchemaGraph(copy) as SchemaGraph;
  for (const n of graph.nodes)
    if (typeof n.schema === 'object') n.schema[METER_KEYWORD] = meterParams(n.schema, ownCost(n, allErrors), allErrors);
  return copy;
}

/**
 * A new Ajv for one schema: nothing is shared between compilations, so no `$id` namespace, no
 * cached schema and no code-generation scope outlives the compiled validator, which the cache
 * can then drop. Compiled patterns are shared through the validator's bounded PatternCache. Construction costs about 0.1 ms: the meta-schema is
 * not compiled here (schemas are checked against it before, by SchemaValidator).
 */
function isolatedAjv(meter: WorkMeter, patterns: PatternCache, allErrors: boolean): Ajv {
  const ajv = new Ajv({
    allErrors,
    strict: false,
    logger: false,
    validateSchema: false,
    // Each $ref target compiles once and is called, never inlined: code size stays linear in the
    // schema. Long required and enum lists loop instead of unrolling into code to compile.
    inlineRefs: false,
    loopRequired: 8,
    loopEnum: 8,
    // Ajv's code optimization passes cost twice the rest of compilation on big schemas.
    code: { regExp: patterns.engine(), optimize: false },
    formats: boundedFormats(meter),
  });
  addFormats(ajv, { formats: [], keywords: true });
  addBoundedKeywords(ajv, meter);
  return ajv;
}

/**
 * Compiles a schema that passed the caps into a validator charging `meter`, which stops at the
 * first error or (allErrors) lists them all, as Ajv's allErrors option; throws Ajv's compile errors.
 */
export function compileBounded(
  schema: SchemaObject | boolean,
  meter: WorkMeter,
  patterns: PatternCache,
  allErrors: boolean,
): ValidateFunction {
  return isolatedAjv(meter, patterns, allErrors).compile(instrument(schema, allErrors));
}
