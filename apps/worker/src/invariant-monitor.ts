import { Metrics } from '@app/metrics';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CHAIN_CHECKS } from '@app/chains';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { DISPUTE_CHECKS } from '@app/disputes';
import { CheckInvariants, LEDGER_CHECKS } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';

/** The money invariants the schedule checks (the rollups, analytics only, stay with `npm run ledger:check`). */
export const MONITORED_CHECKS = [...LEDGER_CHECKS, ...PAYMENT_CHECKS, ...CHAIN_CHECKS, ...DISPUTE_CHECKS];

/**
 * G15: the worker checks the money invariants every INVARIANT_CHECK_INTERVAL_MS (a process timer,
 * like the sweeper) and records the result in Postgres. While one is violated, payouts pause (the
 * payout claim reads the result), `/api/v1/health` reports it, and an error log line names each
 * violated invariant; the next passing check resumes payouts.
 */
@Injectable()
export class InvariantMonitor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(InvariantMonitor.name);
  private timer?: NodeJS.Timeout;
  private running = false;
  private lastOk: boolean | null = null;

  constructor(
    private readonly checkInvariants: CheckInvariants,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.invariantCheckIntervalMs === 0) return;
    this.timer = setInterval(() => void this.run(), this.config.invariantCheckIntervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One check; answers whether every money invariant holds (null: a check was already running or failed to run). */
  async run(): Promise<boolean | null> {
    if (this.running) return null;
    this.running = true;
    try {
      const report = await this.checkInvariants.execute(MONITORED_CHECKS, this.clock.now());
      for (const r of report.results.filter((x) => x.violations.length > 0)) {
        this.logger.error(
          { invariant: r.id, violations: r.violations.slice(0, 5), count: r.violations.length },
          `invariant ${r.id} violated (${r.description}): payouts paused`,
        );
      }
      if (report.ok && this.lastOk === false) this.logger.warn('every money invariant holds again: payouts resume');
      this.lastOk = report.ok;
      this.metrics.invariantCheck(report.ok, this.clock.nowMs());
      return report.ok;
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'invariant check could not run; will retry next interval');
      return null;
    } finally {
      this.running = false;
    }
  }
}
