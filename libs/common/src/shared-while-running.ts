/**
 * Wraps `run` so that calls made while one is running share its promise (its result or its
 * failure); the first call after it settles runs anew. Nothing is cached. For work an
 * unauthenticated flood could otherwise multiply: health probes, metrics scrapes.
 */
export function sharedWhileRunning<T>(run: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  return () =>
    (running ??= run().finally(() => {
      running = null;
    }));
}
