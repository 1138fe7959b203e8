import { Metrics } from '@app/metrics';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { EnforcePayloadCap, MeasurePayloadStorage, PayloadScope } from '@app/execution';
import { PeriodicTask } from './periodic-task';

/**
 * The storage gauges: at start and every STORAGE_METRICS_INTERVAL_MS (a process timer, like the
 * invariant check) the worker measures what the executions' stored inputs and outputs take, per
 * agent (the agents holding the most) and in total. A scan of the executions that still hold a
 * payload, hence a timer rather than a scrape-time read; a failed one keeps the last gauges. An
 * agent or a payer over PAYLOAD_STORAGE_CAP_BYTES is brought back under it (EnforcePayloadCap) and
 * measured again.
 */
@Injectable()
export class PayloadStorageMonitor extends PeriodicTask {
  protected readonly logger = new Logger(PayloadStorageMonitor.name);
  protected readonly failure = 'payload storage measure failed; will retry next interval';

  constructor(
    private readonly measure: MeasurePayloadStorage,
    private readonly enforce: EnforcePayloadCap,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    super();
  }

  protected intervalMs(): number {
    return this.config.storageMetricsIntervalMs;
  }

  protected async work(): Promise<void> {
    let measured = await this.measure.execute();
    const cap = this.config.payloadStorageCapBytes;
    const over: PayloadScope[] =
      cap > 0 ? (['agent', 'payer'] as const).filter((s) => measured[`${s}s`].top[0]?.bytes > cap) : [];
    if (over.length > 0 && (await this.enforce.execute(over)).pruned > 0) measured = await this.measure.execute();
    this.metrics.payloadStorage(measured);
  }
}
