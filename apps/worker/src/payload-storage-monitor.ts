import { Metrics } from '@app/metrics';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { MeasurePayloadStorage } from '@app/execution';

/**
 * The storage gauges: at start and every STORAGE_METRICS_INTERVAL_MS (a process timer, like the
 * invariant check) the worker measures what the executions' stored inputs and outputs take, per
 * agent (the agents holding the most) and in total. A scan of the executions that still hold a
 * payload, hence a timer rather than a scrape-time read.
 */
@Injectable()
export class PayloadStorageMonitor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PayloadStorageMonitor.name);
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly measure: MeasurePayloadStorage,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.storageMetricsIntervalMs === 0) return;
    void this.run();
    this.timer = setInterval(() => void this.run(), this.config.storageMetricsIntervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One measure; false when one was already running or it failed (the gauges keep the last one). */
  async run(): Promise<boolean> {
    if (this.running) return false;
    this.running = true;
    try {
      this.metrics.payloadStorage(await this.measure.execute());
      return true;
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'payload storage measure failed; will retry next interval');
      return false;
    } finally {
      this.running = false;
    }
  }
}
