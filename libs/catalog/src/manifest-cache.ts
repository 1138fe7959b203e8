import { Clock } from '@app/common';

/** How long a built manifest is served before it is built again (per process). */
export const MANIFEST_TTL_MS = 30_000;

/**
 * A manifest built at most once per MANIFEST_TTL_MS: concurrent requests share one build, and a
 * failed build is not kept (the next request builds again).
 */
export class ManifestCache<T> {
  private built: { atMs: number; value: Promise<T> } | null = null;

  constructor(private readonly clock: Clock) {}

  get(build: () => Promise<T>): Promise<T> {
    const now = this.clock.nowMs();
    if (this.built && now - this.built.atMs < MANIFEST_TTL_MS) return this.built.value;
    const entry = { atMs: now, value: build() };
    this.built = entry;
    entry.value.catch(() => {
      if (this.built === entry) this.built = null;
    });
    return entry.value;
  }
}
