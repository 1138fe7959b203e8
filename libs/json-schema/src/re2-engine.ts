import type { CodeOptions } from 'ajv';
import { RE2JS } from 're2js';
import { SCHEMA_LIMITS } from './limits';
import { COSTS, Releasable, WorkMeter } from './work-meter';

const short = (s: string): string => (s.length > 60 ? `${s.slice(0, 57)}...` : s);

/**
 * Compiles a JSON Schema `pattern` (ECMA-262 syntax) for RE2, which matches in time linear in
 * the input, or says why it cannot (a phrase to follow the pattern): RE2 has no backreferences
 * and no lookaround, and a pattern must stay small enough to compile and run quickly.
 */
export function compilePattern(source: string): RE2JS | string {
  if (source.length > SCHEMA_LIMITS.maxPatternLength)
    return `is longer than ${SCHEMA_LIMITS.maxPatternLength} characters`;
  let re: RE2JS;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(source));
  } catch (err) {
    return `cannot run in linear time (${(err as Error).message}); patterns run on RE2: no backreferences, lookahead or lookbehind`;
  }
  if (re.programSize() > SCHEMA_LIMITS.maxPatternProgram) {
    return `is too complex: an RE2 program of ${re.programSize()} instructions (at most ${SCHEMA_LIMITS.maxPatternProgram})`;
  }
  return re;
}

export const describePattern = (source: string): string => `"${short(source)}"`;

/**
 * A compiled pattern whose every test is paid to the meter before it runs. The cached-DFA and
 * prefilter paths cost a little per character; the expensive steps are paid as they happen, by
 * hooking re2js's lazy DFA (fields its typings declare): building a new DFA state costs the
 * program size, and falling back to the NFA (when the DFA gives up on a state explosion) costs
 * the program size per character. Without those hooks (a re2js whose internals moved), every
 * test pays the NFA worst case up front; a unit test fails then.
 */
export class MeteredPattern implements Releasable {
  readonly metered: boolean;
  private readonly inst: number;
  private readonly dfa: ReturnType<RE2JS['re2']>['dfa'] | null;

  constructor(
    private readonly source: string,
    private readonly re: RE2JS,
    private readonly meter: WorkMeter,
  ) {
    this.inst = Math.max(1, re.programSize());
    this.dfa = this.hookDfa();
    this.metered = this.dfa !== null;
  }

  test(s: string): boolean {
    const m = this.meter;
    m.spend(COSTS.regexCall + s.length * (this.metered ? COSTS.regexChar : this.inst * COSTS.regexNfaInst));
    if (this.dfa) m.touch(this);
    return this.re.test(s);
  }

  /** Drops the DFA states built during a validation (up to megabytes per pattern). */
  release(): void {
    this.dfa?.clearCache();
  }

  toString(): string {
    return `re2:${this.source}`;
  }

  private hookDfa(): ReturnType<RE2JS['re2']>['dfa'] | null {
    const re2 = this.re.re2() as { dfa?: ReturnType<RE2JS['re2']>['dfa']; onepass?: unknown };
    const dfa = re2.dfa;
    if (
      !dfa ||
      typeof dfa.step !== 'function' ||
      typeof dfa.match !== 'function' ||
      typeof dfa.clearCache !== 'function' ||
      !('onepass' in re2)
    )
      return null;
    // The one-pass engine runs first when a pattern allows it, at 40-70 ns a character on long
    // strings; without it the lazy DFA runs (10-20 ns a character once its states are built).
    re2.onepass = null;
    const { step, match } = dfa;
    const meter = this.meter;
    const stateCost = (this.inst + (dfa.numClasses || 0)) * COSTS.regexStateInst;
    const nfaCost = this.inst * COSTS.regexNfaInst;
    // Own properties shadow the prototype's methods for this pattern's DFA only.
    dfa.step = function (...args: Parameters<typeof step>) {
      meter.spend(stateCost);
      return step.apply(this, args);
    };
    dfa.match = function (...args: Parameters<typeof match>) {
      const found = match.apply(this, args);
      // null: the DFA gave up; the backtracker or the NFA runs next, over the whole input.
      if (found === null) meter.spend((args[0] as { endPos(): number }).endPos() * nfaCost);
      return found;
    };
    return dfa;
  }
}

/**
 * Compiled patterns by source, shared by every schema a validator compiles (an RE2 compile costs
 * up to a few milliseconds), least recently used dropped past `max`. Also Ajv's `code.regExp`
 * engine: every `pattern` and `patternProperties` key runs on metered RE2.
 */
export class PatternCache {
  private readonly entries = new Map<string, MeteredPattern | string>();

  constructor(
    private readonly meter: WorkMeter,
    private readonly max = 256,
  ) {}

  /** The compiled pattern, or why it cannot be used (a phrase to follow the pattern). */
  get(source: string): MeteredPattern | string {
    let entry = this.entries.get(source);
    if (entry !== undefined) {
      this.entries.delete(source);
    } else {
      const re = compilePattern(source);
      entry = typeof re === 'string' ? re : new MeteredPattern(source, re, this.meter);
      if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(source, entry);
    return entry;
  }

  engine(): NonNullable<CodeOptions['regExp']> {
    const engine = (source: string): MeteredPattern => {
      const p = this.get(source);
      if (typeof p === 'string') throw new Error(`pattern ${describePattern(source)} ${p}`);
      return p;
    };
    // Only read by Ajv's standalone code generation, which is not used.
    return Object.assign(engine, { code: 'require("re2js").RE2JS.compile' });
  }
}
