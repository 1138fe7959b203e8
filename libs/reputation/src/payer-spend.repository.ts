import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** The writes of `payer_spend` / `payer_owner_spend` (migrations ReputationWeight, MaturedPayerSpend). */
@Injectable()
export class PayerSpendRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Counts up to `limit` matured charges (completed at or before `cutoff`, no pending dispute, not
   * counted yet) in their payers' spend, in one statement (`payer_spend_mature`: claimed FOR UPDATE
   * SKIP LOCKED, so concurrent workers count each once). Answers how many it claimed.
   */
  async countMatured(cutoff: Date, limit: number): Promise<number> {
    const [row] = (await this.dataSource.query(`SELECT payer_spend_mature($1, $2) AS n`, [cutoff, limit])) as {
      n: number;
    }[];
    return row.n;
  }
}
