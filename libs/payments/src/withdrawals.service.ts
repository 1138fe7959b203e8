import { Injectable } from '@nestjs/common';
import { jobId, JobProducer } from '@app/queues';
import { PayoutSender } from './payout-sender';

/**
 * Withdrawals (resolutions §6): the amount is reserved from available in the transaction that
 * creates the row (RequestWithdrawal); the worker claims it, sends the net amount, then posts
 * completion (ProcessWithdrawal), or returns the amount to available when it fails for good
 * (FailWithdrawal). This keeps the worker's wake-up and the sweeper's list.
 */
@Injectable()
export class WithdrawalsService {
  constructor(
    private readonly payouts: PayoutSender,
    private readonly jobs: JobProducer,
  ) {}

  /** Wakes the worker for a withdrawal; the sweeper re-enqueues if Redis loses it. */
  async enqueue(id: string): Promise<void> {
    await this.jobs.wake('withdrawal.process', { withdrawalId: id }, { jobId: jobId('withdrawal.process', id) });
  }

  /** Withdrawals that need the worker (for the sweeper): pending, or claimed by a worker that died. */
  dueForProcessing(limit = 200): Promise<string[]> {
    return this.payouts.due('withdrawal', limit);
  }

  /** The same with when each became due (the sweeper counts as recovered only what its job left past a queue wait). */
  dueSince(limit = 200): Promise<{ id: string; dueAt: Date }[]> {
    return this.payouts.dueSince('withdrawal', limit);
  }
}
