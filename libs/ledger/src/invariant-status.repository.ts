import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Page } from '@app/common';
import { queryRows } from '@app/database';
import { InvariantStatusEntity } from './entities/invariant-status.entity';
import { InvariantCheck, InvariantReport, runInvariantChecks } from './invariants';

/** One check's result as kept: which invariants failed, and their first violations. */
export interface InvariantCheckRecord {
  id: string;
  ok: boolean;
  failed: string[];
  violations: { id: string; violations: string[] }[];
  checkedAt: Date;
}

/** A result is kept in the history at least this often while it does not change. */
export const INVARIANT_HISTORY_HEARTBEAT_MS = 3_600_000;
/** How long the history keeps a result. */
export const INVARIANT_HISTORY_DAYS = 7;

/**
 * `invariant_status`, the last result of the scheduled invariant check (CheckInvariants), which
 * pauses payouts while a money invariant is violated (PayoutSender's claim reads it), and
 * `invariant_checks`, its history (written by the same statement, read by the operator, pruned
 * after INVARIANT_HISTORY_DAYS).
 */
@Injectable()
export class InvariantStatusRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The checks on one consistent snapshot (REPEATABLE READ: concurrent postings cannot look like a violation). */
  runChecks(checks: InvariantCheck[]): Promise<InvariantReport> {
    return this.dataSource.transaction('REPEATABLE READ', (m) => runInvariantChecks(m, checks));
  }

  /**
   * The status, and in the same statement a history row when the result differs from the last row
   * kept (ok, or the set of failed invariants) or that row is INVARIANT_HISTORY_HEARTBEAT_MS old.
   * Writers (a worker each) take turns on an advisory lock, so each statement sees the one before;
   * a result checked before the one recorded is dropped: a slow, older `ok` never replaces a newer
   * violation (which pauses payouts).
   */
  async record(report: InvariantReport, at: Date): Promise<void> {
    const failed = report.results.filter((r) => r.violations.length > 0);
    await this.dataSource.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtext('agora:invariant_status'))`);
      await m.query(
        `WITH status AS (
         INSERT INTO invariant_status (id, ok, failed, violations, checked_at) VALUES (1, $1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET ok = EXCLUDED.ok, failed = EXCLUDED.failed, violations = EXCLUDED.violations,
           checked_at = EXCLUDED.checked_at
         WHERE invariant_status.checked_at < EXCLUDED.checked_at
         RETURNING 1)
       INSERT INTO invariant_checks (ok, failed, violations, checked_at)
       SELECT $1, $2, $3, $4 FROM status
        WHERE NOT EXISTS (
          SELECT 1 FROM (SELECT ok, failed, checked_at FROM invariant_checks
                          ORDER BY checked_at DESC, id DESC LIMIT 1) last
           WHERE last.ok = $1 AND last.failed = $2::text[]
             AND last.checked_at > $4::timestamptz - make_interval(secs => $5))`,
        [
          report.ok,
          failed.map((r) => r.id),
          JSON.stringify(failed.map((r) => ({ id: r.id, violations: r.violations.slice(0, 5) }))),
          at,
          INVARIANT_HISTORY_HEARTBEAT_MS / 1000,
        ],
      );
    });
  }

  /** The last result (null: never checked). */
  current(): Promise<InvariantStatusEntity | null> {
    return this.dataSource.manager.findOne(InvariantStatusEntity, { where: { id: 1 } });
  }

  /** The history, newest first, with its total. */
  async history(page: Page): Promise<{ checks: InvariantCheckRecord[]; total: number }> {
    const [rows, [{ total }]] = await Promise.all([
      queryRows<InvariantCheckRecord>(
        this.dataSource.manager,
        `SELECT id::text AS id, ok, failed, violations, checked_at AS "checkedAt" FROM invariant_checks
          ORDER BY checked_at DESC, id DESC LIMIT $1 OFFSET $2`,
        [page.limit, page.offset],
      ),
      queryRows<{ total: number }>(this.dataSource.manager, `SELECT count(*)::int AS total FROM invariant_checks`),
    ]);
    return { checks: rows, total };
  }

  /** Deletes up to `limit` history rows checked before `cutoff`; answers how many. */
  async prune(cutoff: Date, limit: number): Promise<number> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `DELETE FROM invariant_checks
        WHERE id IN (SELECT id FROM invariant_checks WHERE checked_at < $1 LIMIT $2) RETURNING id`,
      [cutoff, limit],
    );
    return rows.length;
  }
}
