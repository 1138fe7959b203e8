import { Injectable } from '@nestjs/common';
import { InvariantStatusRepository } from '../../invariant-status.repository';
import { InvariantCheck, InvariantReport } from '../../invariants';

/**
 * The scheduled invariant check (G15): runs the checks on one consistent snapshot and records the
 * result in `invariant_status`, which pauses payouts while a money invariant is violated
 * (PayoutSender's claim reads it).
 */
@Injectable()
export class CheckInvariants {
  constructor(private readonly status: InvariantStatusRepository) {}

  async execute(checks: InvariantCheck[], at: Date): Promise<InvariantReport> {
    const report = await this.status.runChecks(checks);
    await this.status.record(report, at);
    return report;
  }
}
