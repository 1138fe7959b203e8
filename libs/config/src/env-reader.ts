/* Reading and validating environment variables: the problems are collected, then thrown together. */

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

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

  int(name: string, def: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
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

  require(name: string, value: unknown, why: string): void {
    if (value === undefined) this.problems.push(`${name} is required ${why}`);
  }
}
