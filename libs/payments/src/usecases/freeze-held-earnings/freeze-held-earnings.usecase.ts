import { Injectable } from '@nestjs/common';
import { Queryable } from '@app/database';
import { Accounts, LedgerService } from '@app/ledger';
import { EscrowHoldsRepository } from '../../repositories/escrow-holds.repository';
import { DisputedTransaction } from '../../repositories/transactions.repository';

export interface Freeze {
  /** What the agent still held of the transaction's earnings, now in `agent:<id>:frozen`. */
  frozen: bigint;
  /** Where it was: still held in escrow, or already released to available. */
  from: 'escrow' | 'available';
}

/**
 * Freezes, for a dispute, what the agent still holds of a disputed transaction's earnings (resolutions §7):
 * all of them while the hold is held (the hold frozen with them), else what available has of them; the rest
 * was withdrawn (its debt if the dispute refunds it). When a verified dispute is filed (FreezeDisputedEarnings),
 * when the payer's signature confirms an unverified one (ConfirmDispute), or when an admin's refund decides one
 * still unverified (SettleDisputedEarnings). Inside the caller's transaction, the transaction already disputed.
 */
@Injectable()
export class FreezeHeldEarnings {
  constructor(
    private readonly holds: EscrowHoldsRepository,
    private readonly ledger: LedgerService,
  ) {}

  async execute(
    sql: Queryable,
    tx: Pick<DisputedTransaction, 'id' | 'agentId' | 'agentEarnings'>,
    disputeId: string,
    /** Accounts the caller posts to next (a settlement): locked with the agent's, in ledger order, after the hold. */
    alsoLock: string[] = [],
  ): Promise<Freeze> {
    const { id: transactionId, agentId, agentEarnings: amount } = tx;
    // Waits for a release of this hold in flight: it then reads `released` and freezes from available.
    const hold = await this.holds.lockOfTransaction(sql, transactionId);
    if (alsoLock.length)
      await this.ledger.lockBalances(sql, [
        ...alsoLock,
        Accounts.agentEscrow(agentId).code,
        Accounts.agentAvailable(agentId).code,
        Accounts.agentFrozen(agentId).code,
      ]);
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
      return { frozen: amount, from: 'escrow' };
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
    return { frozen, from: 'available' };
  }
}
