import { Injectable } from '@nestjs/common';
import { AppException } from '@app/common';
import { Queryable } from '@app/database';
import { Accounts, LedgerService } from '@app/ledger';
import { EscrowHoldsRepository } from '../../repositories/escrow-holds.repository';
import { DisputedTransaction, TransactionsRepository } from '../../repositories/transactions.repository';

export interface Freeze {
  /** What the agent still held of the transaction's earnings, now in `agent:<id>:frozen`. */
  frozen: bigint;
  /** Where it was: still held in escrow, or already released to available. */
  from: 'escrow' | 'available';
}

/**
 * Filing a dispute, inside its transaction (resolutions §7): marks the transaction disputed (only a
 * `completed` one, exactly once: the row lock makes concurrent filings queue, and the losers find it
 * disputed, DISPUTE_EXISTS) and freezes what the agent still holds of its earnings: all of them
 * while the hold is held, else what available has of them.
 */
@Injectable()
export class FreezeDisputedEarnings {
  constructor(
    private readonly transactions: TransactionsRepository,
    private readonly holds: EscrowHoldsRepository,
    private readonly ledger: LedgerService,
  ) {}

  async execute(
    sql: Queryable,
    transactionId: string,
    disputeId: string,
  ): Promise<Freeze & { transaction: DisputedTransaction }> {
    const tx = await this.transactions.markDisputed(sql, transactionId, disputeId);
    if (!tx)
      throw new AppException('DISPUTE_EXISTS', 'This transaction is already disputed or refunded', { transactionId });
    const agentId = tx.agentId;
    const amount = tx.agentEarnings;
    // Waits for a release of this hold in flight: it then reads `released` and freezes from available.
    const hold = await this.holds.lockOfTransaction(sql, transactionId);
    if (hold?.status === 'held') {
      await this.holds.freeze(sql, hold.id);
      if (amount > 0n) {
        await this.ledger.post(sql, {
          code: 'dispute.frozen',
          refId: disputeId,
          legs: [
            { account: Accounts.agentEscrow(agentId), amount: -amount },
            { account: Accounts.agentFrozen(agentId), amount },
          ],
          metadata: { transactionId, holdId: hold.id, from: 'escrow' },
        });
      }
      return { frozen: amount, from: 'escrow', transaction: tx };
    }
    const available = Accounts.agentAvailable(agentId);
    const balances = await this.ledger.lockBalances(sql, [available.code, Accounts.agentFrozen(agentId).code]);
    const held = balances.get(available.code)!;
    const frozen = held < amount ? held : amount;
    if (frozen > 0n) {
      await this.ledger.post(sql, {
        code: 'dispute.frozen',
        refId: disputeId,
        legs: [
          { account: available, amount: -frozen },
          { account: Accounts.agentFrozen(agentId), amount: frozen },
        ],
        metadata: { transactionId, from: 'available', withdrawn: (amount - frozen).toString() },
      });
    }
    return { frozen, from: 'available', transaction: tx };
  }
}
