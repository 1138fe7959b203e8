import { Injectable } from '@nestjs/common';
import { Clock, newId } from '@app/common';
import { AppConfig } from '@app/config';
import { allWritesNamed, Queryable } from '@app/database';
import { Accounts, LedgerService } from '@app/ledger';
import { EscrowHoldEntity } from '../../entities/escrow-hold.entity';
import { RefundEntity } from '../../entities/refund.entity';
import { TransactionEntity } from '../../entities/transaction.entity';
import { EscrowRelease } from '../../escrow-release';
import { splitAgentFee } from '../../fees';
import { HoldReleaseSchedule } from '../../hold-release-schedule';
import { RefundsService } from '../../refunds.service';
import { EscrowHoldsRepository } from '../../repositories/escrow-holds.repository';
import { ReleaseHold } from '../release-hold/release-hold.usecase';
import { ExecutionCharge } from './execution-charge';

/** What a charge recorded that matters after commit: the agent's hold and the refund owed, if any. */
export interface RecordedCharge {
  hold: EscrowHoldEntity;
  refund: RefundEntity | null;
}

/**
 * Records an execution's charge in money: inside the charger's transaction the ledger posting,
 * the agent's escrow hold (by its tier) and, for a run that cost less than was paid, the refund
 * owed; after commit, the hold's release (now if it is due, else scheduled) and the refund's
 * processing.
 */
@Injectable()
export class RecordCharge {
  constructor(
    private readonly ledger: LedgerService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly refunds: RefundsService,
    private readonly holds: EscrowHoldsRepository,
    private readonly escrowRelease: EscrowRelease,
    private readonly releaseHold: ReleaseHold,
    private readonly releaseSchedule: HoldReleaseSchedule,
  ) {}

  async write(manager: Queryable, c: ExecutionCharge): Promise<RecordedCharge & { transaction: TransactionEntity }> {
    const { cut, earnings } = splitAgentFee(c.agentFee);
    const unused = c.refund ? c.refund.authorizedAgentFee - c.agentFee : 0n;
    if (unused < 0n) throw new Error(`agent fee ${c.agentFee} exceeds what was authorized`);
    const refundAmount = c.source ? 0n : unused;
    const refund = refundAmount > 0n ? { id: c.refund?.id ?? newId('rfd'), amount: refundAmount } : null;
    const transactionId = c.transactionId ?? newId('tx');
    const holdId = newId('esc');
    const gross = c.platformFee + c.agentFee;
    const now = this.clock.now();
    const hold = Object.assign(new EscrowHoldEntity(), {
      id: holdId,
      transactionId,
      agentId: c.agentId,
      amount: earnings,
      status: 'held',
      releaseAt: now,
      releasedAt: null,
    });
    const transaction = Object.assign(new TransactionEntity(), {
      id: transactionId,
      requestingAgent: c.requestingAgent,
      payerWallet: c.payerWallet.toLowerCase(),
      providingAgentId: c.agentId,
      capabilityId: c.capabilityId,
      grossAmount: gross,
      platformFee: c.platformFee,
      agentFee: c.agentFee,
      platformCut: cut,
      agentEarnings: earnings,
      status: 'completed',
      executionTimeMs: c.executionTimeMs,
      paymentId: c.paymentId,
      escrowId: holdId,
      disputeId: null,
      completedAt: now,
    });
    // One round trip (pipeline mode): the two rows, the refund row and the posting go out together
    // and run in this order; the posting locks the hot platform accounts only until commit.
    // The hold's length by tier (reputation's reputationTier: 60+ instant, 40+ Standard, 20+ At Risk, else Critical).
    const { releaseAt, opened, locked } = await allWritesNamed({
      releaseAt: this.holds.insertCharge(
        manager,
        transaction,
        hold,
        {
          standard: this.config.escrowHoldStandardS,
          atRisk: this.config.escrowHoldAtRiskS,
          critical: this.config.escrowHoldCriticalS,
        },
        c.agentReputation ?? null,
      ),
      opened: refund
        ? this.refunds.open(manager, {
            id: refund.id,
            wallet: c.payerWallet,
            amount: refund.amount,
            reason: 'variable_price_unused',
            executionId: c.refund!.executionId,
            transactionId,
          })
        : Promise.resolve(null),
      posted: this.ledger.post(manager, {
        code: 'execution.settled',
        refId: transactionId,
        legs: [
          { account: c.source?.from ?? Accounts.worldChain(), amount: -(c.source ? gross : gross + unused) },
          { account: Accounts.platformRevenue(), amount: c.platformFee + cut },
          { account: Accounts.agentEscrow(c.agentId), amount: earnings },
          ...(refund ? [{ account: Accounts.clientRefundPayable(c.payerWallet), amount: refund.amount }] : []),
        ],
        metadata: { paymentId: c.paymentId, agentId: c.agentId, ...(refund ? { refundId: refund.id } : {}) },
      }),
      // A release in this transaction credits available (and owed): they are locked here, after the
      // posting's accounts and before the agent's row (the caller's reputation statement), which is
      // the order withdrawals and disputes take them in. Taking the row first deadlocked a charge
      // against a withdrawal holding available and waiting for the row.
      locked:
        c.releaseInline !== false
          ? this.ledger.lockRows(manager, [Accounts.agentAvailable(c.agentId).code, Accounts.agentOwed(c.agentId).code])
          : Promise.resolve(null),
    });
    hold.releaseAt = releaseAt;
    if (hold.releaseAt.getTime() <= now.getTime() && c.releaseInline !== false) {
      await this.escrowRelease.releaseIn(manager, hold, locked ?? undefined);
      Object.assign(hold, { status: 'released', releasedAt: now });
    }
    return { transaction, hold, refund: opened };
  }

  /** After commit: the hold released if due (awaited) or scheduled (not awaited), then the refund queued. */
  async afterCommit(charged: RecordedCharge): Promise<void> {
    const { hold, refund } = charged;
    if (hold.status === 'held' && hold.releaseAt.getTime() <= this.clock.nowMs())
      await this.releaseHold.execute(hold.id);
    else void this.releaseSchedule.schedule(hold);
    if (refund) await this.refunds.enqueue(refund.id);
  }
}
