import { Injectable } from '@nestjs/common';
import { AppException } from '@app/common';
import { Queryable } from '@app/database';
import { DisputedTransaction, TransactionsRepository } from '../../repositories/transactions.repository';
import { Freeze, FreezeHeldEarnings } from '../freeze-held-earnings/freeze-held-earnings.usecase';

export type { Freeze } from '../freeze-held-earnings/freeze-held-earnings.usecase';

/**
 * Filing a dispute, inside its transaction (resolutions §7): marks the transaction disputed (only a
 * `completed` one, exactly once: the row lock makes concurrent filings queue, and the losers find it
 * disputed, DISPUTE_EXISTS) and freezes what the agent still holds of its earnings (FreezeHeldEarnings).
 * `freeze: false` (an unverified filing, which anyone can make from chain data): nothing frozen, the hold
 * left to release as usual, until the payer's signature confirms it.
 */
@Injectable()
export class FreezeDisputedEarnings {
  constructor(
    private readonly transactions: TransactionsRepository,
    private readonly freezeHeld: FreezeHeldEarnings,
  ) {}

  async execute(
    sql: Queryable,
    transactionId: string,
    disputeId: string,
    opts: { freeze: boolean } = { freeze: true },
  ): Promise<Freeze & { transaction: DisputedTransaction }> {
    const tx = await this.transactions.markDisputed(sql, transactionId, disputeId);
    if (!tx)
      throw new AppException('DISPUTE_EXISTS', 'This transaction is already disputed or refunded', { transactionId });
    if (!opts.freeze) return { frozen: 0n, from: 'available', transaction: tx };
    return { ...(await this.freezeHeld.execute(sql, tx, disputeId)), transaction: tx };
  }
}
