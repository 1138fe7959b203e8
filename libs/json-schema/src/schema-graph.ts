import { SCHEMA_LIMITS } from './limits';

export type SchemaObject = Record<string, unknown>;

/** Keywords whose subschemas apply to the same value as their parent (draft-07, as Ajv runs it). */
const IN_PLACE = ['not', 'if', 'then', 'else'] as const;
const IN_PLACE_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;
/** Keywords whose subschemas apply to a part of the value (items, property values, keys). */
const CHILD = ['additionalItems', 'additionalProperties', 'contains', 'propertyNames'] as const;
const CHILD_MAPS = ['properties', 'patternProperties'] as const;
/** Containers of subschemas that apply only through $ref. */
const CONTAINERS = ['definitions', '$defs'] as const;
/** Keywords whose subschemas' errors Ajv creates and then throws away when the whole passes. */
const DISCARDING = new Set(['anyOf', 'oneOf', 'not', 'if', 'contains']);

export interface SchemaNode {
  /** JSON pointer from the root, tokens escaped (RFC 6901): '' is the root. */
  pointer: string;
  schema: SchemaObject | boolean;
  /** Subschemas applied to the same value: allOf/anyOf/oneOf/not/if/then/else, schema dependencies, the $ref target. */
  inPlace: SchemaNode[];
  /** Subschemas applied to parts of the value (items, property values, keys). */
  children: SchemaNode[];
  /** What one evaluation of its own keywords reads: keywords, names looked up (properties, required...), enum/const values. */
  keywords: number;
  lookups: number;
  required: number;
  values: number;
  /** Errors one evaluation can create at once when Ajv lists all errors (required and dependency names, weighted by message length). */
  burst: number;
  /** Whether its errors may be created and thrown away (under anyOf/oneOf/not/if/contains), so they are not bounded by the error cap. */
  discarded: boolean;
}

export interface SchemaGraph {
  root: SchemaNode;
  nodes: SchemaNode[];
  keywords: number;
  /** `pattern` values and `patternProperties` keys, with the pointer of the subschema holding them. */
  patterns: { pointer: string; source: string }[];
}

const isSchema = (v: unknown): v is SchemaObject | boolean =>
  typeof v === 'boolean' || (v !== null && typeof v === 'object' && !Array.isArray(v));
const escapeToken = (t: string): string => t.replace(/~/g, '~0').replace(/\//g, '~1');

/** Weight of comparing a value against a constant: containers cost more (deep equality lists their keys). */
function valueCount(v: unknown): number {
  if (v === null || typeof v !== 'object') return 1;
  let n = 4;
  for (const x of Array.isArray(v) ? v : Object.values(v)) n += valueCount(x);
  return n;
}

/** The pointer a local `$ref` names, or null when the reference leaves the schema (or is not a JSON pointer). */
function localPointer(ref: string): string | null {
  if (!ref.startsWith('#')) return null;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return null;
  }
  return fragment === '' || fragment.startsWith('/') ? fragment : null;
}

/**
 * The subschemas of a schema (already checked for size and depth) and the in-place edges
 * between them, with every `$ref` resolved inside the schema. Returns a problem message instead
 * when the schema uses what cannot be bounded or isolated: a nested `$id`, `$async`, a `$ref`
 * that leaves the schema or does not land on a subschema, too many subschemas or keywords.
 */
export function buildSchemaGraph(schema: SchemaObject | boolean): SchemaGraph | string {
  const nodes: SchemaNode[] = [];
  const byPointer = new Map<string, SchemaNode>();
  const refs: { node: SchemaNode; ref: string }[] = [];
  const patterns: SchemaGraph['patterns'] = [];
  let keywords = 0;
  let problem: string | null = null;

  const discardRoots: SchemaNode[] = [];
  const visit = (s: SchemaObject | boolean, pointer: string): SchemaNode => {
    const node: SchemaNode = {
      pointer,
      schema: s,
      inPlace: [],
      children: [],
      keywords: 0,
      lookups: 0,
      required: 0,
      values: 0,
      burst: 0,
      discarded: false,
    };
    nodes.push(node);
    byPointer.set(pointer, node);
    if (nodes.length > SCHEMA_LIMITS.maxSubschemas)
      problem ??= `has more than ${SCHEMA_LIMITS.maxSubschemas} subschemas`;
    if (typeof s === 'boolean' || problem) return node;
    const at = (...tokens: (string | number)[]) => `${pointer}/${tokens.map((t) => escapeToken(String(t))).join('/')}`;
    const sub = (k: string, x: unknown, edges: SchemaNode[], ...tokens: (string | number)[]) => {
      if (!isSchema(x)) return;
      const child = visit(x, at(k, ...tokens));
      edges.push(child);
      if (DISCARDING.has(k)) discardRoots.push(child);
    };
    node.keywords = Object.keys(s).length;
    keywords += node.keywords;
    if (pointer !== '' && s.$id !== undefined) problem ??= `declares $id at ${pointer} (only the root may have one)`;
    if (s.$async !== undefined) problem ??= 'uses $async (asynchronous schemas are not supported)';
    if (s.$ref !== undefined) {
      if (typeof s.$ref === 'string') refs.push({ node, ref: s.$ref });
      else problem ??= `has a non-string $ref at ${pointer || '/'}`;
    }
    if (typeof s.pattern === 'string') patterns.push({ pointer, source: s.pattern });
    if (s.enum !== undefined) node.values += valueCount(s.enum);
    if (s.const !== undefined) node.values += valueCount(s.const);
    if (Array.isArray(s.required)) node.required = s.required.length;
    node.burst = node.keywords + node.required;
    for (const k of IN_PLACE) sub(k, s[k], node.inPlace);
    for (const k of IN_PLACE_LISTS) {
      const list = s[k];
      if (Array.isArray(list)) list.forEach((x, i) => sub(k, x, node.inPlace, i));
    }
    for (const k of CHILD) sub(k, s[k], node.children);
    if (Array.isArray(s.items)) s.items.forEach((x, i) => sub('items', x, node.children, i));
    else sub('items', s.items, node.children);
    for (const k of [...CHILD_MAPS, ...CONTAINERS]) {
      const map = s[k];
      if (!map || typeof map !== 'object' || Array.isArray(map)) continue;
      const container = k === 'definitions' || k === '$defs';
      for (const [name, x] of Object.entries(map)) {
        if (k === 'patternProperties') patterns.push({ pointer, source: name });
        if (!container) node.lookups++;
        sub(k, x, container ? [] : node.children, name);
      }
    }
    const deps = s.dependencies;
    if (deps && typeof deps === 'object' && !Array.isArray(deps)) {
      for (const [name, x] of Object.entries(deps)) {
        node.lookups += 1 + (Array.isArray(x) ? x.length : 0);
        // Each dependency name is unrolled into code like a keyword.
        if (Array.isArray(x)) keywords += x.length;
        if (Array.isArray(x)) node.burst += x.length * (1 + x.length / 4);
        sub('dependencies', x, node.inPlace, name);
      }
    }
    return node;
  };

  const root = visit(schema, '');
  if (!problem && keywords > SCHEMA_LIMITS.maxKeywords) problem = `has more than ${SCHEMA_LIMITS.maxKeywords} keywords`;
  for (const { node, ref } of refs) {
    if (problem) break;
    const pointer = localPointer(ref);
    const target = pointer === null ? undefined : byPointer.get(pointer);
    if (pointer === null)
      problem = `has a remote $ref "${ref}": only local references ("#" or "#/...") into the same schema are allowed`;
    else if (!target) problem = `has a $ref "${ref}" that does not point to a subschema of this schema`;
    else node.inPlace.push(target);
  }
  if (problem) return problem;
  const stack = discardRoots;
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.discarded) continue;
    n.discarded = true;
    stack.push(...n.inPlace, ...n.children);
  }
  return { root, nodes, keywords, patterns };
}

/**
 * Work units of one evaluation of each subschema at one value, counting everything it applies
 * in place (through $ref too), or a problem message when a $ref cycle applies a subschema to
 * the same value again without descending into it (infinite recursion).
 */
export function inPlaceCosts(graph: SchemaGraph, unit: (n: SchemaNode) => number): Map<SchemaNode, number> | string {
  const cost = new Map<SchemaNode, number>();
  const open = new Set<SchemaNode>();
  let cycleAt: string | null = null;
  const visit = (n: SchemaNode): number => {
    const known = cost.get(n);
    if (known !== undefined) return known;
    if (open.has(n)) {
      cycleAt ??= n.pointer || '/';
      return 0;
    }
    open.add(n);
    let total = unit(n);
    for (const c of n.inPlace) total += visit(c);
    open.delete(n);
    cost.set(n, total);
    return total;
  };
  for (const n of graph.nodes) visit(n);
  return cycleAt ? `has a $ref cycle at ${cycleAt} that applies a subschema to the same value forever` : cost;
}
