import { Injectable } from '@nestjs/common';
import { Clock, formatMicros } from '@app/common';
import { Queryable } from '@app/database';
import { Accounts, LedgerService } from '@app/ledger';
import { OutboxService } from '@app/outbox';
import { AgentCredit } from './debts/agent-credit';
import { EscrowHoldEntity } from './entities/escrow-hold.entity';
import { EscrowHoldsRepository } from './repositories/escrow-holds.repository';

/**
 * The release of a claimed hold, inside the caller's transaction (a charge releasing inline, or
 * ReleaseHold): the hold released, its earnings credited (the agent's debts repaid first) and
 * `escrow.released`. Answers the refunds its repayment opened (the sweeper sends them if nobody wakes them).
 */
@Injectable()
export class EscrowRelease {
  constructor(
    private readonly holds: EscrowHoldsRepository,
    private readonly ledger: LedgerService,
    private readonly outbox: OutboxService,
    private readonly credit: AgentCredit,
    private readonly clock: Clock,
  ) {}

  async releaseIn(manager: Queryable, hold: EscrowHoldEntity): Promise<{ refundIds: string[] }> {
    await this.holds.markReleased(manager, hold.id, this.clock.now());
    if (hold.amount === 0n) return { refundIds: [] };
    // What the agent owes (a dispute's refund of earnings it had withdrawn) is repaid first.
    const { balances, refundIds } = await this.credit.credit(manager, {
      code: 'escrow.released',
      refId: hold.id,
      from: Accounts.agentEscrow(hold.agentId),
      agentId: hold.agentId,
      amount: hold.amount,
    });
    const available =
      balances.get(Accounts.agentAvailable(hold.agentId).code) ??
      (await this.ledger.balance(manager, Accounts.agentAvailable(hold.agentId).code));
    await this.outbox.record(manager, 'escrow.released', hold.agentId, {
      transactionId: hold.transactionId,
      amount: formatMicros(hold.amount),
      newAvailableBalance: formatMicros(available),
    });
    return { refundIds };
  }
}
