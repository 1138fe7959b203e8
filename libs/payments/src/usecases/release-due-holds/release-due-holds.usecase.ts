import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { EscrowHoldsRepository } from '../../repositories/escrow-holds.repository';
import { ReleaseHold } from '../release-hold/release-hold.usecase';

/** The worker's `escrow.release-due` (and the test clock): releases every hold due by now, in batches. Answers how many. */
@Injectable()
export class ReleaseDueHolds {
  constructor(
    private readonly holds: EscrowHoldsRepository,
    private readonly releaseHold: ReleaseHold,
    private readonly clock: Clock,
  ) {}

  async execute(batch = 500): Promise<number> {
    let released = 0;
    for (;;) {
      const due = await this.holds.due(this.clock.now(), batch);
      for (const hold of due) if (await this.releaseHold.execute(hold.id)) released++;
      if (due.length < batch) return released;
    }
  }
}
