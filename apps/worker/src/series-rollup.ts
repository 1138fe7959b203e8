import { Injectable, Logger } from '@nestjs/common';
import { RollUpSeries } from '@app/analytics';
import { AppConfig } from '@app/config';
import { PeriodicTask } from './periodic-task';

/**
 * The console's time series: at start and every SERIES_INTERVAL_MS the worker rolls what ended
 * since the last run into the series tables. The execute path never writes them; a run that fails
 * leaves the cursor where it was, so the next one adds the same rows.
 */
@Injectable()
export class SeriesRollup extends PeriodicTask {
  protected readonly logger = new Logger(SeriesRollup.name);
  protected readonly failure = 'series roll-up failed; will retry next interval';

  constructor(
    private readonly rollUp: RollUpSeries,
    private readonly config: AppConfig,
  ) {
    super();
  }

  protected intervalMs(): number {
    return this.config.seriesIntervalMs;
  }

  protected async work(): Promise<void> {
    await this.rollUp.execute();
  }
}
