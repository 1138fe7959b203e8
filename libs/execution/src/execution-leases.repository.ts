import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { queryRows } from '@app/database';

/**
 * The leases on `executions` renewed by their process while it works (LeaseHeartbeat): a worker's claim
 * on a pending run (`locked_until` while it runs), and the charger's on a completed run awaiting its
 * settlement; the rest of the table's SQL is ExecutionsRepository's.
 */
@Injectable()
export class ExecutionLeasesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Moves the lease from `from` to `to` while this process still holds it; false once it does not. */
  async renewSettlementLease(id: string, from: Date, to: Date): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `UPDATE executions SET locked_until = $3
        WHERE id = $1 AND status = 'completed' AND settlement_status = 'settlement_pending' AND locked_until = $2
        RETURNING id`,
      [id, from, to],
    );
    return rows.length === 1;
  }

  /** A pending run's claim moved from `from` to `to` while this process still runs it; false once it does not. */
  async renewRunClaim(id: string, from: Date, to: Date): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `UPDATE executions SET locked_until = $3 WHERE id = $1 AND status = 'pending' AND locked_until = $2 RETURNING id`,
      [id, from, to],
    );
    return rows.length === 1;
  }
}
