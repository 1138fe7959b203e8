import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { FinishChain, ReleaseStaleNode } from '@app/chains';
import { ResolveOverdueDispute } from '@app/disputes';
import { FinishSettlement } from '@app/execution';
import { ChainTxRecovery } from '@app/onchain';
import {
  ProcessRefund,
  ProcessWithdrawal,
  RecoverRegistrationPayment,
  ReleaseDueHolds,
  ReleaseHold,
} from '@app/payments';
import { QUEUES } from '@app/queues';
import { JobHandlerRegistry } from '../job-handlers';

/**
 * Money-moving jobs. Each decodes its payload and calls one use case, which claims its row
 * (so several run at once: a payout waiting for its receipt never holds up the resend of a
 * transaction it may be queued behind).
 * A settlement retry finishes the execution the payment paid for, so it calls the execution lib;
 * a dispute's response deadline resolves it through the disputes lib (its refund is a payout).
 */
@Processor(QUEUES.money, { concurrency: 8 })
export class MoneyProcessor extends WorkerHost {
  constructor(
    private readonly registry: JobHandlerRegistry,
    processWithdrawal: ProcessWithdrawal,
    processRefund: ProcessRefund,
    releaseHold: ReleaseHold,
    releaseDueHolds: ReleaseDueHolds,
    finishSettlement: FinishSettlement,
    chainTxs: ChainTxRecovery,
    finishChain: FinishChain,
    releaseNode: ReleaseStaleNode,
    registrations: RecoverRegistrationPayment,
    overdueDisputes: ResolveOverdueDispute,
  ) {
    super();
    const jobs = registry.forQueue(QUEUES.money);
    jobs.register('withdrawal.process', (job) => processWithdrawal.execute(job.data.withdrawalId));
    jobs.register('refund.process', (job) => processRefund.execute(job.data.refundId));
    jobs.register('escrow.release', (job) => releaseHold.execute(job.data.holdId));
    jobs.register('escrow.release-due', () => releaseDueHolds.execute());
    jobs.register('payment.settle', (job) => finishSettlement.execute(job.data.paymentId));
    jobs.register('registration.recover', (job) => registrations.execute(job.data.paymentId));
    jobs.register('chain.resend', (job) => chainTxs.resend(job.data.txId));
    jobs.register('chain.finish', (job) => finishChain.execute(job.data.chainId));
    jobs.register('chain.release-node', (job) => releaseNode.execute(job.data.executionId));
    jobs.register('dispute.timeout', (job) => overdueDisputes.execute(job.data.disputeId));
  }

  process(job: Job): Promise<unknown> {
    return this.registry.dispatch(job.queueName, job);
  }
}
