/* Reading and checking environment settings; config.ts says which settings exist. */

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/** The largest delay Node's timers take and the largest Postgres integer. */
export const INT32_MAX = 2_147_483_647;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Reads settings from an environment, collecting every problem instead of stopping at the first. */
export class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  raw(name: string): string | undefined {
    const v = this.env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  }

  str(name: string, def?: string): string | undefined {
    return this.raw(name) ?? def;
  }

  /**
   * An integer setting. The default ceiling is INT32_MAX: a duration past it overflows Node's timers (which
   * then fire at once) and Postgres integers; money and byte counts that may go higher pass their own.
   */
  int(name: string, def: number, min = 0, max = INT32_MAX): number {
    const v = this.raw(name);
    if (v === undefined) return def;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
      this.problems.push(`${name} must be an integer between ${min} and ${max} (got "${v}")`);
      return def;
    }
    return Number(v);
  }

  bool(name: string, def: boolean): boolean {
    const v = this.raw(name);
    if (v === undefined) return def;
    if (['true', '1', 'yes'].includes(v.toLowerCase())) return true;
    if (['false', '0', 'no'].includes(v.toLowerCase())) return false;
    this.problems.push(`${name} must be true or false (got "${v}")`);
    return def;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], def: T): T {
    const v = this.raw(name);
    if (v === undefined) return def;
    if (!(allowed as readonly string[]).includes(v)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${v}")`);
      return def;
    }
    return v as T;
  }

  url(name: string, def: string | undefined, protocols: string[]): string | undefined {
    const v = this.str(name, def);
    if (v === undefined) return undefined;
    try {
      const u = new URL(v);
      if (!protocols.includes(u.protocol)) {
        this.problems.push(`${name} must use ${protocols.join(' or ')} (got "${u.protocol}")`);
      }
    } catch {
      this.problems.push(`${name} must be a URL (got "${v}")`);
    }
    return v;
  }

  /**
   * HTTP headers: a JSON object of strings, or `Name: value` pairs one a line (or separated by `;`
   * when the environment cannot hold newlines). Problems never quote the value: it holds secrets.
   */
  headers(name: string): Record<string, string> {
    const v = this.raw(name);
    if (v === undefined) return {};
    let entries: [string, unknown][];
    if (v.startsWith('{')) {
      try {
        entries = Object.entries(JSON.parse(v) as Record<string, unknown>);
      } catch {
        this.problems.push(`${name} must be a JSON object of header names to strings, or "Name: value" lines`);
        return {};
      }
    } else {
      // `;` separates entries only when there is no newline: a value may hold `;` on its own line.
      entries = v
        .split(v.includes('\n') ? '\n' : ';')
        .map((l) => l.trim())
        .filter(Boolean)
        .map((l) =>
          l.includes(':') ? [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()] : [l, undefined],
        );
    }
    const out: Record<string, string> = {};
    for (const [i, [key, value]] of entries.entries()) {
      if (!HEADER_NAME.test(key) || typeof value !== 'string' || value === '' || /[\r\n]/.test(value)) {
        // Named by its position only: an entry without its colon may be a bare secret.
        this.problems.push(
          `${name} must be a JSON object of header names to strings, or "Name: value" lines (entry ${i + 1} is not)`,
        );
        return {};
      }
      out[key] = value;
    }
    return out;
  }

  require(name: string, value: unknown, why: string): void {
    if (value === undefined) this.problems.push(`${name} is required ${why}`);
  }
}

/** Loopback addresses: a port bound there is reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
