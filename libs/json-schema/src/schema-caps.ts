import { SCHEMA_LIMITS, WORK_BUDGET } from './limits';
import { describePattern } from './re2-engine';
import { buildSchemaGraph, inPlaceCosts, SchemaGraph, SchemaNode, SchemaObject } from './schema-graph';
import { COSTS } from './work-meter';

/**
 * Work units of one evaluation of a subschema's own keywords, in the first pass (stop at the
 * first error: at most one error per evaluation, kept only under anyOf/oneOf/not/if/contains)
 * or in the pass that lists all errors (every keyword, required and dependency name may add one).
 */
export function ownCost(n: SchemaNode, allErrors = false): number {
  const reads =
    COSTS.node + n.keywords * COSTS.keyword + (n.lookups + n.required) * COSTS.lookup + n.values * COSTS.value;
  if (allErrors) return reads + n.burst * COSTS.error;
  return reads + (n.discarded ? COSTS.error : 0);
}

/** Depth of a JSON document, walked without recursion and abandoned past `limit`. */
function depthOver(doc: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[doc, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > limit) return true;
    for (const c of Array.isArray(v) ? v : Object.values(v as object)) stack.push([c, d + 1]);
  }
  return false;
}

/**
 * The static caps, checked before anything compiles: size, depth, subschema and keyword
 * counts, local references only, patterns RE2 can run, no $ref cycle in place, and no subschema
 * whose in-place fan-out (allOf/anyOf/$ref...) alone costs more than a whole validation budget.
 * Returns the subschema graph, or a problem phrase to follow "schema" ("is larger than ...").
 */
export function checkSchemaCaps(
  schema: unknown,
  patternProblem: (source: string) => string | null,
): SchemaGraph | string {
  if (typeof schema !== 'boolean' && (schema === null || typeof schema !== 'object' || Array.isArray(schema)))
    return 'must be a JSON object';
  if (depthOver(schema, SCHEMA_LIMITS.maxDepth)) return `nests deeper than ${SCHEMA_LIMITS.maxDepth} levels`;
  const bytes = Buffer.byteLength(JSON.stringify(schema));
  if (bytes > SCHEMA_LIMITS.maxBytes) return `is larger than ${SCHEMA_LIMITS.maxBytes} bytes serialized (${bytes})`;
  const graph = buildSchemaGraph(schema as SchemaObject | boolean);
  if (typeof graph === 'string') return graph;
  if (graph.patterns.length > SCHEMA_LIMITS.maxPatterns)
    return `has more than ${SCHEMA_LIMITS.maxPatterns} patterns (pattern and patternProperties)`;
  for (const { pointer, source } of graph.patterns) {
    const problem = patternProblem(source);
    if (problem) return `has a pattern ${describePattern(source)} at ${pointer || '/'} that ${problem}`;
  }
  const costs = inPlaceCosts(graph, (n) => ownCost(n));
  if (typeof costs === 'string') return costs;
  for (const [node, cost] of costs) {
    if (cost > WORK_BUDGET)
      return `applies too many subschemas to one value at ${node.pointer || '/'} (through allOf/anyOf/oneOf/$ref: ${cost > 1e15 ? 'over 10^15' : Math.round(cost)} work units, the budget of a whole validation is ${WORK_BUDGET})`;
  }
  return graph;
}
