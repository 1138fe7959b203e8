import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '@app/config';
import { Accounts } from './accounts';
import { LedgerRepository } from './ledger.repository';
import { shardOf } from './ledger-shards';

/**
 * At start-up, opens the LEDGER_SHARDS shards of the platform's hot accounts that do not exist yet
 * (a setting raised past the 16 migration LedgerShards opened): a shard created by a posting on
 * first use would be locked after the accounts that posting already holds, out of order.
 */
@Injectable()
export class LedgerShardsOpener implements OnApplicationBootstrap {
  private readonly logger = new Logger(LedgerShardsOpener.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly repo: LedgerRepository,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const shards = [Accounts.worldChain(), Accounts.platformRevenue()].flatMap((account) =>
      Array.from({ length: this.config.ledgerShards }, (_, k) => shardOf(account, k)),
    );
    // A database not migrated yet (the ops process migrating it) has no table: the next start opens them.
    await this.repo
      .openAccounts(this.dataSource.manager, shards)
      .catch((err: Error) => this.logger.debug({ err: err.message }, 'ledger shards not opened'));
  }
}
