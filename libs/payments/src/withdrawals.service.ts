import { Injectable } from '@nestjs/common';
import { jobId, JobProducer } from '@app/queues';
import { PayoutSender } from '@app/onchain';
import { FailWithdrawal } from './usecases/fail-withdrawal/fail-withdrawal.usecase';
import { ProcessWithdrawal } from './usecases/process-withdrawal/process-withdrawal.usecase';
import { WITHDRAWAL_PAYOUT } from './withdrawal-payout';

/**
 * Withdrawals (resolutions §6): the amount is reserved from available in the transaction that
 * creates the row (RequestWithdrawal); the worker claims it, sends the net amount, then posts
 * completion (ProcessWithdrawal), or returns the amount to available when it fails for good
 * (FailWithdrawal). This keeps the worker's wake-up and the sweeper's list, and answers the two
 * steps for their callers.
 */
@Injectable()
export class WithdrawalsService {
  constructor(
    private readonly payouts: PayoutSender,
    private readonly jobs: JobProducer,
    private readonly processWithdrawal: ProcessWithdrawal,
    private readonly failWithdrawal: FailWithdrawal,
  ) {}

  /** Wakes the worker for a withdrawal; the sweeper re-enqueues if Redis loses it. */
  async enqueue(id: string): Promise<void> {
    await this.jobs.wake('withdrawal.process', { withdrawalId: id }, { jobId: jobId('withdrawal.process', id) });
  }

  /** ProcessWithdrawal: sends the net amount, then completes or fails the withdrawal. */
  process(id: string): Promise<'completed' | 'failed' | 'skipped'> {
    return this.processWithdrawal.execute(id);
  }

  /** FailWithdrawal: gives the amount back to available (only while `claimToken` holds it, or unclaimed). */
  fail(id: string, error: string, claimToken?: string): Promise<boolean> {
    return this.failWithdrawal.execute(id, error, claimToken);
  }

  /** Withdrawals that need the worker (for the sweeper): pending, or claimed by a worker that died. */
  dueForProcessing(limit = 200): Promise<string[]> {
    return this.payouts.due(WITHDRAWAL_PAYOUT, limit);
  }
}
