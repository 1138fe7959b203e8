import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { queryRows } from '@app/database';

/**
 * The charger's lease on `executions` (`locked_until` of a completed run awaiting its settlement),
 * renewed by its process while it settles and charges (LeaseHeartbeat); the rest of the table's
 * SQL is ExecutionsRepository's.
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
}
