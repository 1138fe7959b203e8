import { MAX_TRACKED_ERRORS } from './limits';

/**
 * Unit costs charged by the work meter, about a nanosecond of the worst work each: calibrated on
 * the adversarial corpus of test/bench/schema-bench.ts (time over units charged, per case), so
 * that a validation charged the whole budget takes 10-20 ms on the 2-core reference machine.
 */
export const COSTS = {
  /** One subschema evaluation (the meter call and type checks), per keyword, per name looked up, per enum/const value compared. */
  node: 60,
  keyword: 10,
  lookup: 40,
  value: 75,
  /** One error object: per evaluation of a subschema whose errors may be thrown away (under anyOf/oneOf/not/if/contains), and per error one evaluation may create when all errors are listed. */
  error: 300,
  /** Per UTF-16 unit of a string measured by minLength/maxLength. */
  lengthChar: 8,
  /** Per key of an object a subschema loops over (V8 enumerates a big object's keys at ~300 ns each). */
  key: 300,
  /** Per item of an array a subschema loops over. */
  item: 15,
  /** A $ref call (a function call with a context object), plus per error Ajv copies when the call or a uniqueItems check fails. */
  refCall: 250,
  errorCopy: 6,
  /** One regular-expression test, plus per character scanned by the cached DFA or prefilter. */
  regexCall: 150,
  regexChar: 25,
  /** Per instruction of the program when the DFA builds a state, and per character and instruction on the NFA fallback. */
  regexStateInst: 200,
  regexNfaInst: 70,
  /** uniqueItems: per scalar item, per object or array item plus per character of its canonical JSON, per character of a string item. */
  uniqueScalar: 140,
  uniqueItem: 250,
  uniqueChar: 70,
  uniqueStringChar: 8,
} as const;

/** Thrown inside a validation whose work would exceed its budget; the validation stops there. */
export class WorkBudgetExceeded extends Error {
  constructor() {
    super('work budget exceeded');
  }
}

/** Thrown inside a validation that has collected more errors than MAX_TRACKED_ERRORS. */
export class TooManyErrors extends Error {
  constructor() {
    super('too many errors');
  }
}

/** Something that holds per-validation caches to drop when the validation ends (a regexp's DFA). */
export interface Releasable {
  release(): void;
}

/**
 * The work account of the validation in progress. Validation is synchronous, so one meter
 * serves every schema a validator compiled, one validation at a time. Charges are made before
 * the work they pay for, so a validation stops within one step of its budget.
 */
export class WorkMeter {
  private left = Number.POSITIVE_INFINITY;
  private budget = Number.POSITIVE_INFINITY;
  private readonly touched = new Set<Releasable>();
  private keyCounts = new WeakMap<object, number>();

  /** Starts a validation; `keyCounts` holds the key counts of the value's big objects (measureValue). */
  begin(budget: number, keyCounts: WeakMap<object, number>): void {
    this.left = budget;
    this.budget = budget;
    this.keyCounts = keyCounts;
  }

  /** Units charged since `begin` (more than the budget when the validation was stopped). */
  spent(): number {
    return this.budget - this.left;
  }

  /** Ends the validation and drops the caches it built, so memory does not grow between validations. */
  end(): void {
    for (const t of this.touched) t.release();
    this.touched.clear();
    this.keyCounts = new WeakMap();
    this.left = Number.POSITIVE_INFINITY;
  }

  spend(units: number): void {
    this.left -= units;
    if (this.left < 0) throw new WorkBudgetExceeded();
  }

  touch(r: Releasable): void {
    this.touched.add(r);
  }

  /**
   * Charged at the start of every subschema evaluation (the injected keyword): the subschema's
   * own size, plus the loops its keywords make over this value's characters, keys or items, plus
   * the copy of the errors collected so far that a failing $ref or uniqueItems makes (Ajv joins
   * errors with concat: a loop of failing $ref calls is quadratic without this charge).
   */
  node(
    data: unknown,
    own: number,
    perChar: number,
    perKey: number,
    perItem: number,
    perError: number,
    errors: number,
  ): void {
    if (errors > MAX_TRACKED_ERRORS) throw new TooManyErrors();
    let units = own + errors * perError;
    if (typeof data === 'string') {
      units += data.length * perChar;
    } else if (data !== null && typeof data === 'object') {
      if (Array.isArray(data)) {
        units += data.length * perItem;
      } else if (perKey > 0) {
        let keys = this.keyCounts.get(data);
        if (keys === undefined) {
          keys = 0;
          for (const k in data) if (Object.prototype.hasOwnProperty.call(data, k)) keys++;
        }
        units += keys * perKey;
      }
    }
    this.spend(units);
  }
}
