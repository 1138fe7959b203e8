import { Injectable } from '@nestjs/common';
import { Clock, newId } from '@app/common';
import { AppConfig } from '@app/config';
import { allWrites, Queryable } from '@app/database';
import { AccountRef, Accounts, LedgerService } from '@app/ledger';
import { jobId, JobProducer } from '@app/queues';
import { reputationTier } from '@app/reputation';
import { EscrowHoldEntity } from './entities/escrow-hold.entity';
import { TransactionEntity } from './entities/transaction.entity';
import { splitAgentFee } from './fees';
import { RefundEntity } from './entities/refund.entity';
import { RefundsService } from './refunds.service';
import { EscrowRelease } from './escrow-release';
import { EscrowHoldsRepository } from './repositories/escrow-holds.repository';
import { ReleaseHold } from './usecases/release-hold/release-hold.usecase';
import { ReleaseDueHolds } from './usecases/release-due-holds/release-due-holds.usecase';

export interface ExecutionCharge {
  /** The `tx_` id to create (chosen by the caller so it can be returned before commit). */
  transactionId?: string;
  paymentId: string | null;
  payerWallet: string;
  requestingAgent: string;
  agentId: string;
  /**
   * The score that sets the hold. Left out (the charger): the agent's score at the charge, read by
   * the statement that writes the hold, so a score moved since the target was cached still decides.
   */
  agentReputation?: number;
  /**
   * Whether a hold due now may be released inside this transaction (it waits for the hold's
   * result). False for a one-trip transaction (COMMIT already sent): a hold due now comes back
   * `held` with `releaseAt` <= now, and the caller releases it right after commit.
   */
  releaseInline?: boolean;
  capabilityId: string;
  agentFee: bigint;
  platformFee: bigint;
  executionTimeMs: number;
  /**
   * Variable pricing: the execution this charge is for, and the agent fee the payment covered
   * (the cap). What was paid above `agentFee` is owed back to the payer as a refund.
   */
  refund?: {
    executionId: string;
    authorizedAgentFee: bigint;
    /** The `rfd_` id to use if a refund is owed. */ id?: string;
  };
  /**
   * Where the money comes from when it is not an x402 payment arriving from the chain: a chain's
   * budget (`from` chain:budget), which pays only what the execution cost; the unused part of its
   * reservation never left it, so it is neither moved nor refunded.
   */
  source?: { from: AccountRef };
}

/** Holds are released by one delayed job per bucket of this length (a hold is released at most this late). */
export const RELEASE_BUCKET_MS = 5_000;

/**
 * Charged executions and the escrow of their earnings: posting the split and holding earnings by
 * the agent's tier (inside the charge's transaction), scheduling their release. The release itself
 * is the ReleaseHold and ReleaseDueHolds use cases (`release`, `releaseDue` answer through them).
 */
@Injectable()
export class EscrowService {
  private readonly scheduledBuckets = new Set<number>();

  constructor(
    private readonly ledger: LedgerService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly jobs: JobProducer,
    private readonly refunds: RefundsService,
    private readonly holds: EscrowHoldsRepository,
    private readonly escrowRelease: EscrowRelease,
    private readonly releaseHold: ReleaseHold,
    private readonly releaseDueHolds: ReleaseDueHolds,
  ) {}

  /**
   * After commit: makes sure a delayed `escrow.release-due` job runs at the end of the hold's
   * RELEASE_BUCKET_MS bucket. One job per bucket (deterministic id across processes, and
   * remembered here so a busy process does not ask Redis again for every charge), not one per
   * hold; the sweeper covers a lost job.
   */
  async scheduleRelease(hold: { id: string; releaseAt: Date; status: string }): Promise<void> {
    if (hold.status !== 'held') return;
    const now = this.clock.nowMs();
    const bucket = Math.ceil(Math.max(hold.releaseAt.getTime(), now + 1) / RELEASE_BUCKET_MS);
    if (this.scheduledBuckets.has(bucket)) return;
    if (this.scheduledBuckets.size >= 10_000) {
      const current = Math.floor(now / RELEASE_BUCKET_MS);
      for (const b of this.scheduledBuckets) if (b < current) this.scheduledBuckets.delete(b);
    }
    this.scheduledBuckets.add(bucket);
    const queued = await this.jobs.wake(
      'escrow.release-due',
      { bucket },
      { jobId: jobId('escrow.release-due', bucket), delay: Math.max(0, bucket * RELEASE_BUCKET_MS - now) },
    );
    if (!queued) this.scheduledBuckets.delete(bucket);
  }

  /** Worker step of `escrow.release-due` (ReleaseDueHolds): releases every hold due by now, in batches. Returns how many. */
  releaseDue(batch = 500): Promise<number> {
    return this.releaseDueHolds.execute(batch);
  }

  /** Seconds an agent's earnings are held, by its tier now (resolutions §6). */
  holdSeconds(reputation: number): number {
    switch (reputationTier(reputation)) {
      case 'Excellent':
      case 'Trusted':
        return 0;
      case 'Standard':
        return this.config.escrowHoldStandardS;
      case 'At Risk':
        return this.config.escrowHoldAtRiskS;
      case 'Critical':
        return this.config.escrowHoldCriticalS;
    }
  }

  /**
   * Inside the caller's transaction: the client paid platform fee + agent fee; the platform
   * keeps the fee and a half-up 5% cut; the agent's earnings go to escrow (and straight to
   * available for instant tiers).
   */
  async recordCharge(
    manager: Queryable,
    c: ExecutionCharge,
  ): Promise<{ transaction: TransactionEntity; hold: EscrowHoldEntity; refund: RefundEntity | null }> {
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
    const [releaseAt, opened] = await allWrites([
      this.holds.insertCharge(
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
      refund
        ? this.refunds.open(manager, {
            id: refund.id,
            wallet: c.payerWallet,
            amount: refund.amount,
            reason: 'variable_price_unused',
            executionId: c.refund!.executionId,
            transactionId,
          })
        : Promise.resolve(null),
      this.ledger.post(manager, {
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
      c.releaseInline !== false
        ? this.ledger.lockBalances(manager, [
            Accounts.agentAvailable(c.agentId).code,
            Accounts.agentOwed(c.agentId).code,
          ])
        : Promise.resolve(null),
    ]);
    hold.releaseAt = releaseAt;
    if (hold.releaseAt.getTime() <= now.getTime() && c.releaseInline !== false) {
      await this.escrowRelease.releaseIn(manager, hold);
      Object.assign(hold, { status: 'released', releasedAt: now });
    }
    return { transaction, hold, refund: opened };
  }

  /** ReleaseHold: releases a held escrow whose time has come; answers whether this call released it. */
  release(holdId: string): Promise<boolean> {
    return this.releaseHold.execute(holdId);
  }

  /** Held escrows due for release (for the sweeper). */
  dueReleases(limit = 500): Promise<{ id: string; releaseAt: Date }[]> {
    return this.holds.due(this.clock.now(), limit);
  }
}
