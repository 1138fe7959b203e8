import { Clock } from '@app/common';

/** How long a built manifest is served before it is built again (per process). */
export const MANIFEST_TTL_MS = 30_000;

/** Built manifests kept per use case (the pages of `/.well-known/x402.json`): the oldest is dropped past it. */
const MANIFEST_CACHE_MAX = 32;

/**
 * A manifest built at most once per MANIFEST_TTL_MS per key: concurrent requests share one build,
 * and a failed build is not kept (the next request builds again).
 */
export class ManifestCache<T> {
  private readonly built = new Map<string, { atMs: number; value: Promise<T> }>();

  constructor(private readonly clock: Clock) {}

  get(key: string, build: () => Promise<T>): Promise<T> {
    const now = this.clock.nowMs();
    const hit = this.built.get(key);
    if (hit && now - hit.atMs < MANIFEST_TTL_MS) return hit.value;
    this.built.delete(key);
    if (this.built.size >= MANIFEST_CACHE_MAX) this.built.delete(this.built.keys().next().value!);
    const value = build();
    this.built.set(key, { atMs: now, value });
    value.catch(() => {
      if (this.built.get(key)?.value === value) this.built.delete(key);
    });
    return value;
  }
}
