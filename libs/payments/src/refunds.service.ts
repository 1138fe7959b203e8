import { Injectable } from '@nestjs/common';
import { Clock, NotFoundException } from '@app/common';
import { AppConfig } from '@app/config';
import { Queryable } from '@app/database';
import { jobId, JobProducer } from '@app/queues';
import { RefundEntity } from './entities/refund.entity';
import { PayoutSender } from './payout-sender';
import { RefundsRepository } from './repositories/refunds.repository';

export interface OpenRefund {
  id: string;
  wallet: string;
  amount: bigint;
  /**
   * `variable_price_unused`: a metered execution cost less than authorized; `chain_unspent`: what a
   * final chain's budget had left; `registration_unused`: a registration fee that moved without its agent;
   * `dispute`: a dispute the client won (all of the agent fee) or split (half of it), as far as the agent still held it (or an
   * admin advanced it); `dispute_repayment`: what the agent's later earnings repaid of the rest (agent_debts).
   */
  reason: 'variable_price_unused' | 'chain_unspent' | 'registration_unused' | 'dispute' | 'dispute_repayment';
  executionId: string | null;
  transactionId: string | null;
}

/**
 * Refunds of captured money to the payer. The posting that creates the liability
 * (`client:<wallet>:refund_payable`) belongs to the caller's transaction, which also opens the
 * row here; the worker then sends the transfer and `refund.paid` moves the amount back out.
 */
@Injectable()
export class RefundsService {
  constructor(
    private readonly repo: RefundsRepository,
    private readonly payouts: PayoutSender,
    private readonly clock: Clock,
    private readonly jobs: JobProducer,
    private readonly config: AppConfig,
  ) {}

  /**
   * Inside the caller's transaction, one statement (pipeline- and oneTrip-safe): writes the refund.
   * Below the dust floor it is `held` (owed, not sent); otherwise `pending`, carrying the payer's
   * held refunds in its transfer (`payout_amount`). Answers the row as written.
   */
  async open(manager: Queryable, r: OpenRefund): Promise<RefundEntity> {
    const sendable = r.amount >= BigInt(this.config.refundDustMicro);
    await this.repo.insert(manager, { ...r, wallet: r.wallet.toLowerCase() }, sendable);
    return Object.assign(new RefundEntity(), {
      id: r.id,
      wallet: r.wallet.toLowerCase(),
      amount: r.amount,
      reason: r.reason,
      executionId: r.executionId,
      transactionId: r.transactionId,
      status: sendable ? 'pending' : 'held',
      txHash: null,
      signedTx: null,
      attempts: 0,
      claimToken: null,
      chainTxId: null,
      carriedBy: null,
      payoutAmount: null,
      retryAt: null,
      lockedUntil: null,
      error: null,
      createdAt: this.clock.now(),
      completedAt: null,
    });
  }

  /** After commit: wakes the worker; the sweeper re-enqueues if Redis loses the job. */
  async enqueue(id: string): Promise<void> {
    await this.jobs.wake('refund.process', { refundId: id }, { jobId: jobId('refund.process', id) });
  }

  async get(id: string): Promise<RefundEntity> {
    const r = await this.repo.findById(id);
    if (!r) throw new NotFoundException('NOT_FOUND', 'Refund', id);
    return r;
  }

  /** Refunds that need the worker (for the sweeper): failed ones whose retry time has come are re-driven first. */
  async dueForProcessing(limit = 200): Promise<string[]> {
    await this.repo.redriveDue(this.clock.now(), limit);
    return this.payouts.due('refund', limit);
  }

  /** The same with when each became due (a re-driven failure: when it was written, so it counts as recovered). */
  async dueSince(limit = 200): Promise<{ id: string; dueAt: Date }[]> {
    await this.repo.redriveDue(this.clock.now(), limit);
    return this.payouts.dueSince('refund', limit);
  }
}
