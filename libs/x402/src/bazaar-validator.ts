import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import { RE2JS } from 're2js';

/**
 * `validateDiscoveryExtension` of `@x402/extensions` on a shared Ajv: the library builds a new Ajv
 * (meta-schemas included) for every call, about 7 ms each on this machine, which a page of listings
 * cannot afford; compiling on a shared one takes about 1 ms (docs/performance.md). Same rules: no
 * reference outside the document, and `info` valid against `schema`. Patterns run on RE2 (linear
 * time: an agent's schema cannot stall the listing); unknown formats are ignored silently.
 *
 * An Ajv keeps every function it compiled for its life (`removeSchema` does not free them: about
 * 23 KB a compile), so one serves AJV_COMPILES_MAX compiles and is then replaced, with the LRU of
 * its compiled schemas: memory stays bounded however many schemas a crawler makes us compile.
 */
export const AJV_COMPILES_MAX = 256;

const newAjv = () =>
  new Ajv2020({
    strict: false,
    allErrors: false,
    logger: false,
    code: {
      regExp: Object.assign((source: string) => RE2JS.compile(RE2JS.translateRegExp(source)), {
        code: 'require("re2js").RE2JS.compile',
      }),
    },
  });

let ajv = newAjv();
/** Compiles on the current Ajv. */
let compiles = 0;

/** How many compiles the current Ajv holds (at most AJV_COMPILES_MAX): what its memory grows with. */
export const bazaarAjvCompiles = (): number => compiles;

/** Whether a schema refers outside itself (a `$ref` not starting with `#`, or an `$id` below the root). */
function hasExternalReference(node: unknown, depth = 0): boolean {
  if (depth > 64) return true;
  if (Array.isArray(node)) return node.some((v) => hasExternalReference(v, depth + 1));
  if (node === null || typeof node !== 'object') return false;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) return true;
    if (key === '$id' && depth > 0) return true;
    if (hasExternalReference(value, depth + 1)) return true;
  }
  return false;
}

/** Compiled schemas by their JSON (capabilities often share shapes), on the current Ajv; least recently used first. */
const compiled = new Map<string, ValidateFunction | null>();

function compile(schema: Record<string, unknown>): ValidateFunction | null {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (validate !== undefined) {
    compiled.delete(key);
  } else {
    if (compiles >= AJV_COMPILES_MAX) {
      ajv = newAjv();
      compiles = 0;
      compiled.clear();
    }
    compiles++;
    try {
      validate = ajv.compile(schema);
    } catch {
      validate = null;
    } finally {
      ajv.removeSchema(schema);
    }
  }
  compiled.set(key, validate);
  return validate;
}

/** Whether a bazaar extension (`{info, schema}`) is valid: its info against its own schema. */
export function validBazaar(extension: unknown): boolean {
  if (extension === null || typeof extension !== 'object') return false;
  const { info, schema } = extension as { info?: unknown; schema?: unknown };
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema) || hasExternalReference(schema))
    return false;
  return compile(schema as Record<string, unknown>)?.(info) === true;
}
