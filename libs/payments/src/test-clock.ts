import { Injectable } from '@nestjs/common';
import { Queryable, queryRows } from '@app/database';
import { RefundsService } from './refunds.service';
import { ReleaseDueHolds } from './usecases/release-due-holds/release-due-holds.usecase';
import { ProcessRefund } from './usecases/process-refund/process-refund.usecase';
import { ProcessWithdrawal } from './usecases/process-withdrawal/process-withdrawal.usecase';
import { WithdrawalsService } from './withdrawals.service';

/** What moving the test clock did to payments' rows. */
export interface PaymentsShift {
  escrowHolds: number;
  transactions: number;
  withdrawals: number;
  refunds: number;
}

/** What payments' work that came due did. */
export interface PaymentsDueRun {
  escrowReleased: number;
  withdrawalsProcessed: number;
  refundsProcessed: number;
}

const SHIFT = `make_interval(secs => $1::int)`;

/**
 * Payments' part of the local test clock (AdvanceTestClock): time is read from each process's clock
 * and from stored due times, so "later" is made by moving the stored times back. Only times that
 * something waits on move: held escrows' release, charges' completion (their dispute filing window
 * and the withdrawal reserve), failed refunds' retry, and claims on payouts. No amount changes.
 */
@Injectable()
export class PaymentsTestClock {
  constructor(
    private readonly releaseDueHolds: ReleaseDueHolds,
    private readonly withdrawals: WithdrawalsService,
    private readonly processWithdrawal: ProcessWithdrawal,
    private readonly refunds: RefundsService,
    private readonly processRefund: ProcessRefund,
  ) {}

  /** In the caller's transaction: every waited-on time of payments' rows `seconds` earlier. */
  async shiftBack(sql: Queryable, seconds: number): Promise<PaymentsShift> {
    const [row] = await queryRows<PaymentsShift>(
      sql,
      `WITH holds AS (UPDATE escrow_holds SET release_at = release_at - ${SHIFT} WHERE status = 'held' RETURNING 1),
            charges AS (UPDATE transactions SET completed_at = completed_at - ${SHIFT} WHERE completed_at IS NOT NULL RETURNING 1),
            payouts AS (UPDATE withdrawals SET locked_until = locked_until - ${SHIFT}, next_attempt_at = next_attempt_at - ${SHIFT}
                         WHERE status IN ('pending', 'processing') RETURNING 1),
            refunds AS (UPDATE refunds SET retry_at = retry_at - ${SHIFT}, locked_until = locked_until - ${SHIFT}
                         WHERE status IN ('pending', 'processing', 'failed') RETURNING 1)
       SELECT (SELECT count(*) FROM holds)::int AS "escrowHolds", (SELECT count(*) FROM charges)::int AS transactions,
              (SELECT count(*) FROM payouts)::int AS withdrawals, (SELECT count(*) FROM refunds)::int AS refunds`,
      [seconds],
    );
    return row;
  }

  /** After commit: the work now due, done here (as the worker's jobs do it; their claims make a worker racing it harmless). */
  async runDue(): Promise<PaymentsDueRun> {
    const escrowReleased = await this.releaseDueHolds.execute();
    let withdrawalsProcessed = 0;
    for (const id of await this.withdrawals.dueForProcessing())
      if ((await this.processWithdrawal.execute(id)) !== 'skipped') withdrawalsProcessed++;
    let refundsProcessed = 0;
    for (const id of await this.refunds.dueForProcessing())
      if ((await this.processRefund.execute(id)) !== 'skipped') refundsProcessed++;
    return { escrowReleased, withdrawalsProcessed, refundsProcessed };
  }
}
