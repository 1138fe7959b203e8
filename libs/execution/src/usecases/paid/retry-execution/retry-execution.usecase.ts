import { Injectable } from '@nestjs/common';
import { AppException, Clock, NotFoundException } from '@app/common';
import { AppConfig } from '@app/config';
import { PaymentFundings } from '@app/payments';
import { jobId, JobProducer } from '@app/queues';
import { ExecutionOutcome, MAX_RETRIES, PaymentProof } from '../../../execution.types';
import { ExecutionsRepository } from '../../../executions.repository';
import { presentsOriginalPayment, runClaimUntil } from '../../../execution-rows';
import { RunPendingExecution } from '../run-pending-execution/run-pending-execution.usecase';

/**
 * Re-runs a failed or timed-out execution with its stored, still unused authorization (at most
 * MAX_RETRIES times, while the authorization is valid, and while its input is kept: an uncharged
 * run keeps it only up to UNCHARGED_INPUT_KEEP_BYTES). The contract's retry takes no request data:
 * the request id (given to the payer only) names it. A payment header, when sent, must be the
 * original one (403 otherwise); only with it does the answer carry the output (`withOutput`).
 */
@Injectable()
export class RetryExecution {
  constructor(
    private readonly repo: ExecutionsRepository,
    private readonly payments: PaymentFundings,
    private readonly runPending: RunPendingExecution,
    private readonly jobs: JobProducer,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, payment: PaymentProof | null): Promise<ExecutionOutcome> {
    const execution = await this.repo.findById(id);
    if (!execution) throw new NotFoundException('EXECUTION_NOT_FOUND', 'Execution', id);
    if (execution.chainId) {
      throw new AppException(
        'INVALID_STATE',
        "An execution in a chain is not retried: a failed node's reservation went back to the chain's budget",
        { chainId: execution.chainId },
      );
    }
    if (payment && !presentsOriginalPayment(execution, payment)) {
      throw new AppException(
        'FORBIDDEN',
        'This is not the payment of the original execute request; retry with it, or with no payment header',
      );
    }
    if (!['failed', 'timeout'].includes(execution.status)) {
      throw new AppException(
        'INVALID_STATE',
        `Only a failed or timed-out execution can be retried (status ${execution.status})`,
        { status: execution.status },
      );
    }
    if (execution.payloadPrunedAt)
      throw new AppException(
        'INVALID_STATE',
        'The input of this execution was deleted after the retention period; execute again',
      );
    if (execution.input === null)
      throw new AppException(
        'INVALID_STATE',
        'A run that was not charged keeps its input only up to a small size, and this one was larger; nothing was charged: execute again',
      );
    if (execution.retryCount >= MAX_RETRIES)
      throw new AppException('INVALID_STATE', `An execution can be retried at most ${MAX_RETRIES} times`, {
        retryCount: execution.retryCount,
      });
    const stored = await this.payments.find(execution.paymentId!);
    const nowS = BigInt(Math.floor(this.clock.nowMs() / 1000));
    if (!stored || stored.status !== 'reserved' || stored.validBefore < nowS + 6n) {
      throw new AppException(
        'INVALID_STATE',
        'The payment authorization of this execution has expired; execute again with a new payment',
        { paymentStatus: stored?.status },
      );
    }
    // A sync retry is run here, so the row is held by this request from the reset on.
    const lockedUntil = execution.isAsync ? null : runClaimUntil(this.clock.nowMs(), this.config);
    if (!(await this.repo.resetForRetry(id, MAX_RETRIES, lockedUntil)))
      throw new AppException('INVALID_STATE', 'The execution changed while retrying; read its status');
    if (execution.isAsync) {
      await this.jobs.wake(
        'execution.run',
        { executionId: id },
        { jobId: jobId('execution.run', id, this.clock.nowMs()) },
      );
      return { execution: (await this.repo.findById(id))!, settlement: null };
    }
    return this.runPending.execute(id, { claimed: true });
  }
}
