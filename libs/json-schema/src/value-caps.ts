import { VALUE_LIMITS } from './limits';

export interface ValueLimits {
  maxDepth: number;
  maxNodes: number;
  maxObjectKeys: number;
}

/** Objects with at least this many keys have their key count remembered for the work meter. */
const REMEMBERED_KEYS = 32;

class TooBig {
  constructor(readonly problem: string) {}
}

/**
 * Measures a value against the value limits, stopping at the first limit broken. Recursive, but
 * never deeper than maxDepth + 1 frames: a value nested 100,000 deep is refused at level 65, not
 * a stack overflow. Returns why the value is too big (a phrase to follow "value"), or the key
 * counts of its big objects, so the work meter charges key loops without enumerating keys again.
 */
export function measureValue(
  value: unknown,
  limits: ValueLimits = VALUE_LIMITS,
): { problem: string } | { keyCounts: WeakMap<object, number> } {
  const keyCounts = new WeakMap<object, number>();
  let count = 1;
  const visit = (v: object, depth: number): void => {
    if (Array.isArray(v)) {
      const n = v.length;
      if (n === 0) return;
      if (depth >= limits.maxDepth) throw new TooBig(`nests deeper than ${limits.maxDepth} levels`);
      if ((count += n) > limits.maxNodes) throw new TooBig(`has more than ${limits.maxNodes} JSON values`);
      for (let i = 0; i < n; i++) {
        const c: unknown = v[i];
        if (c !== null && typeof c === 'object') visit(c, depth + 1);
      }
      return;
    }
    // Object.keys enumerates a big (dictionary-mode) object faster than for-in, and lets the key
    // cap refuse it before any value is read.
    const keys = Object.keys(v);
    const n = keys.length;
    if (n === 0) return;
    if (n > limits.maxObjectKeys) throw new TooBig(`has an object with more than ${limits.maxObjectKeys} keys`);
    if (depth >= limits.maxDepth) throw new TooBig(`nests deeper than ${limits.maxDepth} levels`);
    if ((count += n) > limits.maxNodes) throw new TooBig(`has more than ${limits.maxNodes} JSON values`);
    if (n >= REMEMBERED_KEYS) keyCounts.set(v, n);
    for (let i = 0; i < n; i++) {
      const c: unknown = (v as Record<string, unknown>)[keys[i]];
      if (c !== null && typeof c === 'object') visit(c, depth + 1);
    }
  };
  try {
    if (value !== null && typeof value === 'object') visit(value, 0);
  } catch (err) {
    if (err instanceof TooBig) return { problem: err.problem };
    throw err;
  }
  return { keyCounts };
}
