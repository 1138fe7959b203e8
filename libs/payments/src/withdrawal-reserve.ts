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
 * cannot withdraw the earnings of transactions still inside their dispute filing window. A dispute
 * can then always freeze them, so what a payer wins back was never paid out to a new agent's wallet.
 * The record is money, not runs or wallets: RESERVE_MIN_VOLUME_MICRO of agent fees settled at least
 * RESERVE_MIN_AGE_S ago and never disputed, from at least RESERVE_MIN_FUNDED_PAYERS distinct funded
 * payers other than the owner (each has paid FUNDED_PAYER_MIN_SPEND_MICRO to other owners' agents in
 * matured charges, past their filing window, and counts up to what it paid there), so price-0 runs,
 * sock puppets with no spend of their own, money a payer can still dispute back and one payer's
 * circular spend between two owners establish nothing. An agent the upgrade to 1.2 found established under
 * 1.1's rule (runs and payers, migration ReserveRecordAtUpgrade) stays established. Every read is bounded
 * (the balance is a public read): the record looks at the agent's oldest RECORD_SCAN charges.
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
    // An agent 1.1's rule had established when the deployment upgraded keeps that (docs/deploy.md, "Upgrading to 1.2").
    if (await this.transactions.establishedAtUpgrade(sql, agentId)) return true;
    const c = this.config;
    const before = new Date(this.clock.nowMs() - c.reserveMinAgeS * 1000);
    const minSpend = BigInt(c.fundedPayerMinSpendMicro);
    const record = await this.transactions.fundedRecord(sql, agentId, before, minSpend, RECORD_SCAN);
    return record.volume >= BigInt(c.reserveMinVolumeMicro) && record.payers >= c.reserveMinFundedPayers;
  }
}
