import { Injectable } from '@nestjs/common';
import { Queryable } from '@app/database';
import { AccountRef } from './accounts';
import { LedgerRepository } from './ledger.repository';

/**
 * Opening an owner's accounts, for a lib that does not post (agents, at registration): nothing
 * moves, the rows exist with their zero balances. A posting creates missing accounts on first use,
 * but then locks them after the ones it already holds (out of order): opening an owner's accounts
 * when the owner is created keeps concurrent first postings in LEDGER_LOCK_ORDER. Posting itself is
 * LedgerService's, which only libs/payments imports (docs/architecture.md, "Who posts to the ledger").
 */
@Injectable()
export class LedgerAccounts {
  constructor(private readonly repo: LedgerRepository) {}

  /** Inside the caller's transaction: creates the accounts that do not exist yet. */
  async open(manager: Queryable, accounts: AccountRef[]): Promise<void> {
    await this.repo.openAccounts(manager, accounts);
  }
}
