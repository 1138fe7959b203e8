import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { TransactionRunner } from '@app/database';
import { Accounts, LedgerService } from '@app/ledger';
import { EscrowRelease } from '../../escrow-release';
import { RefundsService } from '../../refunds.service';
import { EscrowHoldsRepository } from '../../repositories/escrow-holds.repository';

/**
 * Releases a held escrow whose time has come (`escrow.release`, the sweeper, a one-trip charge after
 * commit). Claiming the row first makes a duplicate job (or the sweeper racing the delayed job) a
 * no-op. Answers whether this call released it.
 */
@Injectable()
export class ReleaseHold {
  constructor(
    private readonly holds: EscrowHoldsRepository,
    private readonly release: EscrowRelease,
    private readonly ledger: LedgerService,
    private readonly refunds: RefundsService,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(holdId: string): Promise<boolean> {
    const released = await this.tx.run(async (manager) => {
      const hold = await this.holds.claimDue(manager, holdId, this.clock.now());
      if (!hold) return null;
      // Escrow before available, as a charge released in its own transaction takes them (the
      // escrow account with the charge's posting, available with the release): by id the posting
      // could take available first and deadlock against that charge.
      await this.ledger.lockFirst(manager, Accounts.agentEscrow(hold.agentId).code);
      return this.release.releaseIn(manager, hold);
    });
    if (released === null) return false;
    for (const id of released.refundIds) await this.refunds.enqueue(id);
    return true;
  }
}
