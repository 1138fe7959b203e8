/** A failure injected on purpose at a named point (tests only). */
export class InjectedFault extends Error {
  constructor(readonly point: string) {
    super(`fault injected at ${point}`);
    this.name = 'InjectedFault';
  }
}

/**
 * Named points where a test can make the process fail, to prove recovery (a crash between two
 * writes, a charge that fails after the money moved). Nothing arms it outside tests: a test gets
 * the instance from the application and calls `arm`. An unarmed `trip` is one map lookup.
 */
export class FaultInjector {
  private readonly armed = new Map<string, number>();
  private killPoint: string | null = null;
  private readonly hooks = new Map<string, () => Promise<void>>();

  /** Tests of a real crash (FAULT_KILL_AT): the process kills itself with SIGKILL at `point`, nothing after it runs. */
  killAt(point: string | undefined): void {
    this.killPoint = point ?? null;
  }

  /** The next `times` trips of `point` throw InjectedFault. */
  arm(point: string, times = 1): void {
    this.armed.set(point, times);
  }

  /** The next time `point` is reached (`reach`), `action` runs first and is awaited (a test cuts Postgres off there). */
  onReach(point: string, action: () => Promise<void>): void {
    this.hooks.set(point, action);
  }

  disarm(): void {
    this.armed.clear();
    this.hooks.clear();
  }

  /** `trip`, after the action a test set for `point` (onReach), if any: for points on an async path. */
  async reach(point: string): Promise<void> {
    const hook = this.hooks.get(point);
    if (hook) {
      this.hooks.delete(point);
      await hook();
    }
    this.trip(point);
  }

  trip(point: string): void {
    if (this.killPoint === point) process.kill(process.pid, 'SIGKILL');
    if (this.armed.size === 0) return;
    const left = this.armed.get(point);
    if (!left) return;
    if (left <= 1) this.armed.delete(point);
    else this.armed.set(point, left - 1);
    throw new InjectedFault(point);
  }
}
