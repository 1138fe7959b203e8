import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { allWrites, PG_NOT_CLAIMED, pgErrorCode, TransactionRunner } from '@app/database';
import { jobId, JobProducer } from '@app/queues';
import { ExecutionEntity, ExecutionsRepository } from '@app/execution';
import { PaymentFundings } from '@app/payments';
import { ChainBudget } from '../../chain-budget';

/**
 * A chain root whose payment settles outside Postgres (evm, facilitator) and was not settled
 * while its request waited (the settlement failed or was slow, or the process died before it):
 * the worker settles it (SettlePayment: asking the chain first, so money is recorded once);
 * once it moved, the chain is funded and ended at once and the root execution, which never ran,
 * is recorded failed, in one transaction, so the worker's chain.finish refunds all of it. If the
 * request's own process funded the chain meanwhile, the funding claim refuses this one and
 * nothing is written. Throws SETTLEMENT_FAILED while the payment does not settle (retried).
 */
@Injectable()
export class EndUnrunChain {
  constructor(
    private readonly funding: PaymentFundings,
    private readonly budget: ChainBudget,
    private readonly repo: ExecutionsRepository,
    private readonly jobs: JobProducer,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(root: ExecutionEntity): Promise<boolean> {
    const payment = await this.funding.stored(root.paymentId!);
    await payment.settle();
    const now = this.clock.now();
    try {
      await this.tx.pipelined((sql) =>
        allWrites([
          this.budget.fundUnrun(sql, root.chainId!, payment.value, payment.id),
          payment.link(sql, root.id),
          this.repo.recordFailure(sql, root.id, {
            status: 'failed',
            error: 'the chain was not run: its payment settled after the request ended; all of it is refunded',
            timeMs: 0,
            completedAt: now,
          }),
        ]),
      );
    } catch (err) {
      if (pgErrorCode(err) === PG_NOT_CLAIMED) return false; // funded by the request after all
      throw err;
    }
    await this.jobs.wake('chain.finish', { chainId: root.chainId! }, { jobId: jobId('chain.finish', root.chainId!) });
    return true;
  }
}
