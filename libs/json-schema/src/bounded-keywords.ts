import type Ajv from 'ajv';
import { _, AnySchemaObject, ErrorObject, KeywordCxt } from 'ajv';
import N from 'ajv/dist/compile/names';
import { canonicalJson } from './canonical-json';
import { COSTS, WorkMeter } from './work-meter';

/** The keyword injected into every subschema to charge its evaluation: [own, perChar, perKey, perItem, perError]. */
export const METER_KEYWORD = 'x-agora-work';

const isType = (x: unknown, t: string): boolean => {
  switch (t) {
    case 'null':
      return x === null;
    case 'number':
      return typeof x === 'number' && Number.isFinite(x);
    case 'integer':
      return Number.isInteger(x);
    default:
      return typeof x === t;
  }
};

/** The item types Ajv's uniqueItems looks at (it skips items of other types when all are scalars). */
function scalarItemTypes(items: unknown): string[] | null {
  const type =
    items && typeof items === 'object' && !Array.isArray(items) ? (items as { type?: unknown }).type : undefined;
  const types =
    typeof type === 'string'
      ? [type]
      : Array.isArray(type)
        ? type.filter((t): t is string => typeof t === 'string')
        : [];
  return types.length > 0 && !types.some((t) => t === 'object' || t === 'array') ? types : null;
}

/**
 * uniqueItems in linear time: items are compared by canonical JSON (keys sorted) through a
 * Map, where Ajv compares every pair (quadratic: 100,000 items took minutes). It reports the
 * same pair Ajv does, and like Ajv skips items outside the declared scalar item types.
 */
function uniqueItemsCheck(
  meter: WorkMeter,
  parent: AnySchemaObject,
): { (data: unknown[]): boolean; errors?: Partial<ErrorObject>[] } {
  const scalarTypes = scalarItemTypes(parent.items);
  // Scalars are their own Map keys (SameValueZero: 1 and "1" differ, 0 and -0 do not, as in Ajv);
  // objects and arrays are keyed by canonical JSON (key order ignored) in a map of their own.
  const check = (data: unknown[]): boolean => {
    check.errors = undefined;
    const scalars = new Map<unknown, number>();
    const objects = new Map<unknown, number>();
    const seen = (item: unknown, i: number, keepFirst: boolean): number | undefined => {
      let map = scalars;
      let key = item;
      if (typeof item === 'string') {
        meter.spend(COSTS.uniqueScalar + item.length * COSTS.uniqueStringChar);
      } else if (item !== null && typeof item === 'object') {
        map = objects;
        key = canonicalJson(item);
        meter.spend(COSTS.uniqueItem + (key as string).length * COSTS.uniqueChar);
      } else {
        meter.spend(COSTS.uniqueScalar);
      }
      const j = map.get(key);
      if (j === undefined || !keepFirst) map.set(key, i);
      return j;
    };
    let pair: [number, number] | null = null;
    if (scalarTypes) {
      // Ajv's scalar loop: from the end, the first item equal to one after it.
      for (let i = data.length - 1; i >= 0 && !pair; i--) {
        if (!scalarTypes.some((t) => isType(data[i], t))) continue;
        const j = seen(data[i], i, true);
        if (j !== undefined) pair = [i, j];
      }
    } else {
      // Ajv's pairwise loop: the last item equal to an earlier one, and the last such earlier one.
      for (let i = 0; i < data.length; i++) {
        const j = seen(data[i], i, false);
        if (j !== undefined) pair = [i, j];
      }
    }
    if (!pair) return true;
    const [i, j] = pair;
    check.errors = [
      {
        keyword: 'uniqueItems',
        message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
        params: { i, j },
      },
    ];
    return false;
  };
  check.errors = undefined as Partial<ErrorObject>[] | undefined;
  return check;
}

/** Replaces Ajv's quadratic uniqueItems (the draft-07 meta-schema uses it on `enum` too). */
export function addLinearUniqueItems(ajv: Ajv, meter: WorkMeter): void {
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword({
    keyword: 'uniqueItems',
    type: 'array',
    schemaType: 'boolean',
    compile: (unique: boolean, parent: AnySchemaObject) =>
      (unique ? uniqueItemsCheck(meter, parent) : () => true) as (data: unknown) => boolean,
  });
}

/** Adds the metering keyword (first in its group, so it pays before the work) and linear uniqueItems. */
export function addBoundedKeywords(ajv: Ajv, meter: WorkMeter): void {
  ajv.addKeyword({
    keyword: METER_KEYWORD,
    schemaType: 'array',
    before: '$comment',
    code(cxt: KeywordCxt) {
      const [own, perChar, perKey, perItem, perError] = cxt.schema as number[];
      const m = cxt.gen.scopeValue('obj', { ref: meter });
      // N.errors: the count of errors the enclosing validate function holds so far.
      cxt.gen.code(_`${m}.node(${cxt.data}, ${own}, ${perChar}, ${perKey}, ${perItem}, ${perError}, ${N.errors})`);
    },
  });
  addLinearUniqueItems(ajv, meter);
}
