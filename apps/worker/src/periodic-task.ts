import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';

/**
 * A process timer (not a BullMQ repeatable, which would vanish with Redis) that runs `work` at
 * start and every `intervalMs` (0: never), one run at a time; a failed run is logged and the next
 * interval tries again.
 */
export abstract class PeriodicTask implements OnApplicationBootstrap, OnApplicationShutdown {
  protected abstract readonly logger: Logger;
  private timer?: NodeJS.Timeout;
  private running = false;

  protected abstract intervalMs(): number;
  protected abstract work(): Promise<void>;
  /** What the log says when a run fails. */
  protected abstract readonly failure: string;

  onApplicationBootstrap(): void {
    const every = this.intervalMs();
    if (every === 0) return;
    void this.run();
    this.timer = setInterval(() => void this.run(), every);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One run; false when one was already running or it failed. */
  async run(): Promise<boolean> {
    if (this.running) return false;
    this.running = true;
    try {
      await this.work();
      return true;
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, this.failure);
      return false;
    } finally {
      this.running = false;
    }
  }
}
