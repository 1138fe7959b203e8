import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { InvariantStatusEntity } from './entities/invariant-status.entity';
import { InvariantCheck, InvariantReport, runInvariantChecks } from './invariants';

/**
 * `invariant_status`, the last result of the scheduled invariant check (CheckInvariants), which
 * pauses payouts while a money invariant is violated (PayoutSender's claim reads it).
 */
@Injectable()
export class InvariantStatusRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The checks on one consistent snapshot (REPEATABLE READ: concurrent postings cannot look like a violation). */
  runChecks(checks: InvariantCheck[]): Promise<InvariantReport> {
    return this.dataSource.transaction('REPEATABLE READ', (m) => runInvariantChecks(m, checks));
  }

  async record(report: InvariantReport, at: Date): Promise<void> {
    const failed = report.results.filter((r) => r.violations.length > 0);
    await this.dataSource.query(
      `INSERT INTO invariant_status (id, ok, failed, violations, checked_at) VALUES (1, $1, $2, $3, $4)
       ON CONFLICT (id) DO UPDATE SET ok = EXCLUDED.ok, failed = EXCLUDED.failed, violations = EXCLUDED.violations, checked_at = EXCLUDED.checked_at`,
      [
        report.ok,
        failed.map((r) => r.id),
        JSON.stringify(failed.map((r) => ({ id: r.id, violations: r.violations.slice(0, 5) }))),
        at,
      ],
    );
  }

  /** The last result (null: never checked). */
  current(): Promise<InvariantStatusEntity | null> {
    return this.dataSource.manager.findOne(InvariantStatusEntity, { where: { id: 1 } });
  }
}
