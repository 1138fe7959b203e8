import { Injectable } from '@nestjs/common';
import { Queryable } from '@app/database';
import { DisputedTransaction, TransactionsRepository } from '../../repositories/transactions.repository';

/** A charged transaction as a dispute sees it (null: none), read in the caller's transaction when given. */
@Injectable()
export class GetDisputedTransaction {
  constructor(private readonly transactions: TransactionsRepository) {}

  execute(id: string, sql?: Queryable): Promise<DisputedTransaction | null> {
    return this.transactions.disputed(id, sql);
  }

  /** Several at once (one statement), by id. */
  many(ids: string[]): Promise<Map<string, DisputedTransaction>> {
    return this.transactions.disputedMany(ids);
  }
}
