import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { Queryable } from '@app/database';
import { EscrowService, ExecutionCharge } from '../../escrow.service';
import { RefundsService } from '../../refunds.service';

/**
 * Records an execution's charge in money: inside the charger's transaction the ledger posting,
 * the agent's escrow hold and, for a run that cost less than was paid, the refund owed; after
 * commit, the hold's release (now if it is due, else scheduled) and the refund's processing.
 */
@Injectable()
export class RecordCharge {
  constructor(
    private readonly escrow: EscrowService,
    private readonly refunds: RefundsService,
    private readonly clock: Clock,
  ) {}

  /** Whether an agent of this score is paid at once (no hold): the charge then releases in its own transaction. */
  releasesAtOnce(reputation: number): boolean {
    return this.escrow.holdSeconds(reputation) === 0;
  }

  /** Inside the caller's transaction: the charge's money rows. */
  write(sql: Queryable, charge: ExecutionCharge) {
    return this.escrow.recordCharge(sql, charge);
  }

  /** After commit: the hold released if due (awaited) or scheduled (not awaited), then the refund queued. */
  async afterCommit(charged: Pick<Awaited<ReturnType<RecordCharge['write']>>, 'hold' | 'refund'>): Promise<void> {
    const { hold, refund } = charged;
    if (hold.status === 'held' && hold.releaseAt.getTime() <= this.clock.nowMs()) await this.escrow.release(hold.id);
    else void this.escrow.scheduleRelease(hold);
    if (refund) await this.refunds.enqueue(refund.id);
  }
}
