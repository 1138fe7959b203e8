import { Injectable } from '@nestjs/common';
import { Clock, formatMicros } from '@app/common';
import { allWrites, Queryable } from '@app/database';
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

  async releaseIn(
    manager: Queryable,
    hold: EscrowHoldEntity,
    locked?: Map<string, bigint>,
  ): Promise<{ refundIds: string[] }> {
    if (hold.amount > 0n && locked && this.owesNothing(hold.agentId, locked))
      return this.releaseAtOnce(manager, hold, locked);
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

  /**
   * The agent's available row is locked by this transaction and its owed balance is 0: no debt to
   * repay, so the whole amount lands in available and the new balance is known before the credit
   * runs. The hold's update, the credit and the event then go out together, one round trip while
   * the charge holds the hot ledger rows, instead of three. Checked after: a credit that repaid
   * anything or left another balance rolls the transaction back.
   */
  private owesNothing(agentId: string, locked: Map<string, bigint>): boolean {
    return (
      locked.has(Accounts.agentAvailable(agentId).code) && (locked.get(Accounts.agentOwed(agentId).code) ?? 0n) === 0n
    );
  }

  private async releaseAtOnce(
    manager: Queryable,
    hold: EscrowHoldEntity,
    locked: Map<string, bigint>,
  ): Promise<{ refundIds: string[] }> {
    const code = Accounts.agentAvailable(hold.agentId).code;
    const available = locked.get(code)! + hold.amount;
    const [, credited] = await allWrites([
      this.holds.markReleased(manager, hold.id, this.clock.now()),
      this.credit.credit(manager, {
        code: 'escrow.released',
        refId: hold.id,
        from: Accounts.agentEscrow(hold.agentId),
        agentId: hold.agentId,
        amount: hold.amount,
      }),
      this.outbox.record(manager, 'escrow.released', hold.agentId, {
        transactionId: hold.transactionId,
        amount: formatMicros(hold.amount),
        newAvailableBalance: formatMicros(available),
      }),
    ]);
    if (credited.repaid !== 0n || credited.balances.get(code) !== available)
      throw new Error(`escrow release ${hold.id}: the agent's locked balances moved during the credit`);
    return { refundIds: [] };
  }
}
