import type { Parameters } from 'fast-check';
import { propertyParams } from '../support/property-runs';

/*
 * Jest setup file of the unit project: `propertyParams` (test/support/property-runs.ts) as a global,
 * like `describe` and `expect`, for the specs beside the code, which must not import the test tree.
 */
declare global {
  /** fast-check parameters for a property whose full run count is `full`; see test/support/property-runs.ts. */
  function propertyParams<T = unknown>(full: number): Parameters<T>;
}

Object.assign(globalThis, { propertyParams });
