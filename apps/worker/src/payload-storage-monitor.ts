import { Metrics } from '@app/metrics';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { MeasurePayloadStorage } from '@app/execution';
import { PeriodicTask } from './periodic-task';

/**
 * The storage gauges: at start and every STORAGE_METRICS_INTERVAL_MS (a process timer, like the
 * invariant check) the worker measures what the executions' stored inputs and outputs take, per
 * agent (the agents holding the most) and in total. A scan of the executions that still hold a
 * payload, hence a timer rather than a scrape-time read; a failed one keeps the last gauges.
 */
@Injectable()
export class PayloadStorageMonitor extends PeriodicTask {
  protected readonly logger = new Logger(PayloadStorageMonitor.name);
  protected readonly failure = 'payload storage measure failed; will retry next interval';

  constructor(
    private readonly measure: MeasurePayloadStorage,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    super();
  }

  protected intervalMs(): number {
    return this.config.storageMetricsIntervalMs;
  }

  protected async work(): Promise<void> {
    this.metrics.payloadStorage(await this.measure.execute());
  }
}
