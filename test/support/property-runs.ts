import type { Parameters } from 'fast-check';

/*
 * How hard the fast-check properties try: the one place every property test takes its run count
 * and seed from. Specs under test/ import it; specs under libs/ and apps/, which must not import the
 * test tree (.dependency-cruiser.cjs), call the same `propertyParams` as a jest global
 * (test/setup/property-globals.ts).
 *
 * Run count, for a property whose full count is `full`:
 *   FC_RUNS=<n>     n runs (FC_RUNS=full: the full count)
 *   CI=true         the full count (.ci/run sets it)
 *   otherwise       a tenth of it, at least 100 and at most `full`, so a local run stays quick.
 *
 * Seed: unless FC_SEED is set, fast-check picks one per property, and a failure's report starts
 * with it and the failing case's path: `{ seed: S, path: "P", endOnFailure: true }`.
 * FC_SEED=S replays the run; FC_SEED=S FC_PATH=P (with jest -t <that test>) goes straight to the
 * shrunk counterexample.
 */

function fullRequested(): boolean {
  const ci = (process.env.CI ?? '').toLowerCase();
  return ci === 'true' || ci === '1';
}

/** Number of runs (or, for the ledger model test, operations) for a property whose full count is `full`. */
export function propertyRuns(full: number): number {
  const env = process.env.FC_RUNS?.trim();
  if (env) {
    if (env === 'full') return full;
    const n = Number(env);
    if (!Number.isInteger(n) || n < 1)
      throw new Error(`FC_RUNS must be a positive integer or "full", not ${JSON.stringify(env)}`);
    return n;
  }
  if (fullRequested()) return full;
  return Math.min(full, Math.max(100, Math.ceil(full / 10)));
}

function envInteger(name: string): number | undefined {
  const raw = process.env[name]?.trim();
  if (!raw) return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be an integer, not ${JSON.stringify(raw)}`);
  return n;
}

/** FC_SEED, when a failure is being replayed. */
export const propertySeed: number | undefined = envInteger('FC_SEED');
/** FC_PATH, to replay a failure's shrunk counterexample directly. */
export const propertyPath: string | undefined = process.env.FC_PATH?.trim() || undefined;

/** fast-check parameters for a property whose full run count is `full`: `fc.assert(p, propertyParams(2_000))`. */
export function propertyParams<T = unknown>(full: number): Parameters<T> {
  return {
    numRuns: propertyRuns(full),
    ...(propertySeed !== undefined ? { seed: propertySeed } : {}),
    ...(propertyPath !== undefined ? { path: propertyPath } : {}),
  };
}
