import { CACHE_LIMITS } from './limits';

export interface CacheLimits {
  maxScopes: number;
  maxEntriesPerScope: number;
  maxTotalBytes: number;
}

interface Entry<V> {
  value: V;
  bytes: number;
}

/**
 * A two-level LRU: scopes (agents) in least-recently-used order, each with its entries in the
 * same order. Bounded in scopes, in entries per scope (one agent cannot push the others out by
 * itself), and in bytes over all (the weight of a compiled schema grows with its source).
 */
export class ScopedLruCache<V> {
  private readonly scopes = new Map<string, Map<string, Entry<V>>>();
  private bytes = 0;
  private entries = 0;

  constructor(private readonly limits: CacheLimits = CACHE_LIMITS) {}

  get(scope: string, key: string): V | undefined {
    const s = this.scopes.get(scope);
    const e = s?.get(key);
    if (!s || !e) return undefined;
    this.scopes.delete(scope);
    this.scopes.set(scope, s);
    s.delete(key);
    s.set(key, e);
    return e.value;
  }

  set(scope: string, key: string, value: V, bytes: number): void {
    const s = this.scopes.get(scope) ?? new Map<string, Entry<V>>();
    this.scopes.delete(scope);
    this.scopes.set(scope, s);
    if (s.has(key)) this.remove(s, key);
    s.set(key, { value, bytes });
    this.bytes += bytes;
    this.entries++;
    while (s.size > this.limits.maxEntriesPerScope) this.remove(s, s.keys().next().value!);
    while (this.scopes.size > this.limits.maxScopes) this.dropScope(this.scopes.keys().next().value!);
    while (this.bytes > this.limits.maxTotalBytes && this.entries > 1) {
      const [oldest, entries] = this.scopes.entries().next().value!;
      this.remove(entries, entries.keys().next().value!);
      if (entries.size === 0) this.scopes.delete(oldest);
    }
  }

  stats(): { scopes: number; entries: number; bytes: number } {
    return { scopes: this.scopes.size, entries: this.entries, bytes: this.bytes };
  }

  private remove(s: Map<string, Entry<V>>, key: string): void {
    const e = s.get(key);
    if (!e) return;
    s.delete(key);
    this.bytes -= e.bytes;
    this.entries--;
  }

  private dropScope(scope: string): void {
    const s = this.scopes.get(scope)!;
    for (const key of [...s.keys()]) this.remove(s, key);
    this.scopes.delete(scope);
  }
}
