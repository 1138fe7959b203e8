import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { RollUpSeries } from '@app/analytics';
import { AppConfig } from '@app/config';

/**
 * The console's time series: at start and every SERIES_INTERVAL_MS (a process timer, like the
 * invariant check) the worker rolls what ended since the last run into the series tables. The
 * execute path never writes them; a run that fails leaves the cursor where it was, so the next
 * one adds the same rows.
 */
@Injectable()
export class SeriesRollup implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SeriesRollup.name);
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly rollUp: RollUpSeries,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.seriesIntervalMs === 0) return;
    void this.run();
    this.timer = setInterval(() => void this.run(), this.config.seriesIntervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One roll-up; false when one was already running or it failed. */
  async run(): Promise<boolean> {
    if (this.running) return false;
    this.running = true;
    try {
      await this.rollUp.execute();
      return true;
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'series roll-up failed; will retry next interval');
      return false;
    } finally {
      this.running = false;
    }
  }
}
