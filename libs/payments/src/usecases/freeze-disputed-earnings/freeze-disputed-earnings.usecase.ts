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
 * Also the payer's confirmation of an unverified filing (the transaction then marked by that dispute).
 * `freeze: false` (an unverified filing, which anyone can make from chain data): the transaction only
 * locked, left `completed` with no dispute (the claim lives in the dispute row alone, so it keeps counting
 * in the agent's record, the payer's spend and the work shares), nothing frozen, the hold left to release
 * as usual, until the payer's signature confirms it (or an admin's refund decides it).
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
    const tx = opts.freeze
      ? await this.transactions.markDisputed(sql, transactionId, disputeId)
      : await this.transactions.lockUndisputed(sql, transactionId);
    if (!tx)
      throw new AppException('DISPUTE_EXISTS', 'This transaction is already disputed or refunded', { transactionId });
    if (!opts.freeze) return { frozen: 0n, from: 'available', transaction: tx };
    return { ...(await this.freezeHeld.execute(sql, tx, disputeId)), transaction: tx };
  }
}
