import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { Queryable } from '@app/database';
import { TransactionsRepository } from './repositories/transactions.repository';

/** The part of an agent's available balance it cannot withdraw yet. */
export interface Reserve {
  /** min(available, earnings released to available whose transactions are still inside their filing window). */
  reserved: bigint;
  /** When all of it is free (null: nothing reserved). */
  reservedUntil: Date | null;
  /** When enough of it frees for a withdrawal of `amount` out of `available` (null: nothing reserved). */
  freeFor(amount: bigint): Promise<Date | null>;
}

const NONE: Reserve = { reserved: 0n, reservedUntil: null, freeFor: () => Promise.resolve(null) };
/** How many of an agent's charges the established-record check reads at most (a busy agent is read in bounded work). */
const RECORD_SCAN = 10_000;

/**
 * The rolling reserve (resolutions §6, WITHDRAWAL_RESERVE): an agent without an established record
 * (RESERVE_MIN_EXECUTIONS charged executions by payers other than its own wallet, from
 * RESERVE_MIN_PAYERS distinct such payers, the first RESERVE_MIN_AGE_S ago) cannot withdraw the
 * earnings of transactions still inside their dispute filing window. A dispute can then always
 * freeze them, so what a payer wins back was never paid out to a new agent's wallet. Every read is
 * bounded (the balance is a public read): the record looks at the agent's oldest RECORD_SCAN charges.
 */
@Injectable()
export class WithdrawalReserve {
  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly transactions: TransactionsRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** The reserve on `available` (read under the caller's lock of the available account when it withdraws). */
  async of(agentId: string, available: bigint, sql: Queryable = this.dataSource): Promise<Reserve> {
    if (!this.config.withdrawalReserve || available <= 0n || (await this.established(agentId, sql))) return NONE;
    const since = new Date(this.clock.nowMs() - this.config.disputeFilingWindowS * 1000);
    const windowS = this.config.disputeFilingWindowS;
    const { total, until } = await this.transactions.releasedInsideWindow(sql, agentId, since, windowS);
    const reserved = total < available ? total : available;
    if (reserved === 0n) return NONE;
    return {
      reserved,
      reservedUntil: until!,
      // The first moment the earnings still reserved then leave `amount` withdrawable (available kept as it is now).
      freeFor: (amount) => this.transactions.freesAt(sql, agentId, since, windowS, { total, available, amount }),
    };
  }

  private async established(agentId: string, sql: Queryable): Promise<boolean> {
    const c = this.config;
    const record = await this.transactions.record(sql, agentId, RECORD_SCAN);
    const age = record.first ? this.clock.nowMs() - record.first.getTime() : 0;
    return record.n >= c.reserveMinExecutions && record.payers >= c.reserveMinPayers && age >= c.reserveMinAgeS * 1000;
  }
}
