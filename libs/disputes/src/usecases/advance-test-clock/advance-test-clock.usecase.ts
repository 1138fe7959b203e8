import { Injectable } from '@nestjs/common';
import { AppException } from '@app/common';
import { AppConfig } from '@app/config';
import { TransactionRunner } from '@app/database';
import { PaymentsDueRun, PaymentsShift, PaymentsTestClock } from '@app/payments';
import { CountMaturedSpend } from '@app/reputation';
import { DisputeTimeouts } from '../../dispute-timeouts';
import { DisputesRepository } from '../../disputes.repository';
import { ResolveOverdueDispute } from '../resolve-overdue-dispute/resolve-overdue-dispute.usecase';

/** The longest single move: a year. */
export const TEST_CLOCK_MAX_SECONDS = 31_536_000;

export interface TestClockAdvance {
  seconds: number;
  /** Rows whose waited-on times moved. */
  shifted: PaymentsShift & { disputes: number };
  /** The work that came due, done. */
  done: PaymentsDueRun & { disputesResolved: number };
}

/**
 * The local test clock (`POST /admin/test-clock/advance`): makes due now whatever would be due
 * `seconds` later, so a team can see escrow release, a dispute's response window close and a
 * withdrawal go out without waiting days. Each process reads time from its own clock and compares it
 * with stored due times, so the stored times move back, all in one transaction; then the work now
 * due runs (the worker's own steps, claim-guarded; matured charges join their payers' spend). Amounts never change, so the money invariants
 * hold. Local settlement only: nothing else may be hurried past a real deadline.
 */
@Injectable()
export class AdvanceTestClock {
  constructor(
    private readonly config: AppConfig,
    private readonly tx: TransactionRunner,
    private readonly payments: PaymentsTestClock,
    private readonly disputes: DisputesRepository,
    private readonly timeouts: DisputeTimeouts,
    private readonly resolveOverdue: ResolveOverdueDispute,
    private readonly maturedSpend: CountMaturedSpend,
  ) {}

  async execute(seconds: number): Promise<TestClockAdvance> {
    if (this.config.settlementMode !== 'local') {
      throw new AppException(
        'FORBIDDEN',
        'The test clock exists only in local settlement (SETTLEMENT_MODE=local), where no real money moves',
        {
          reason: 'test_clock_local_only',
          settlementMode: this.config.settlementMode,
        },
      );
    }
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > TEST_CLOCK_MAX_SECONDS)
      throw new Error(`seconds must be 1-${TEST_CLOCK_MAX_SECONDS}`);
    const shifted = await this.tx.run(async (manager) => ({
      ...(await this.payments.shiftBack(manager, seconds)),
      disputes: await this.disputes.shiftBack(manager, seconds),
    }));
    // Disputes first: a response window that closed resolves for the payer, whose refund then goes out below.
    let disputesResolved = 0;
    for (const id of await this.timeouts.due()) if (await this.resolveOverdue.execute(id)) disputesResolved++;
    const run = await this.payments.runDue();
    // Charges now past their filing window join their payers' settled spend, as the worker's sweep would.
    await this.maturedSpend.execute();
    return { seconds, shifted, done: { ...run, disputesResolved } };
  }
}
