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

  /**
   * `locked`: the agent's balances as the caller's transaction locked them (a charge). When the
   * available row is among them and nothing is owed, the credit lands whole in available, so the
   * event's balance is known before the credit runs: the hold's update, the credit and the event go
   * out together (one round trip while a charge holds the hot ledger rows), checked after (a credit
   * that repaid anything or left another balance rolls the transaction back). Otherwise the event
   * follows the credit, with the balance it left.
   */
  async releaseIn(
    manager: Queryable,
    hold: EscrowHoldEntity,
    locked?: Map<string, bigint>,
  ): Promise<{ refundIds: string[] }> {
    const released = this.holds.markReleased(manager, hold.id, this.clock.now());
    if (hold.amount === 0n) return released.then(() => ({ refundIds: [] }));
    const code = Accounts.agentAvailable(hold.agentId).code;
    const known =
      locked?.has(code) && !locked.get(Accounts.agentOwed(hold.agentId).code) ? locked.get(code)! + hold.amount : null;
    const [, credited] = await allWrites([
      released,
      // What the agent owes (a dispute's refund of earnings it had withdrawn) is repaid first.
      this.credit.credit(manager, {
        code: 'escrow.released',
        refId: hold.id,
        from: Accounts.agentEscrow(hold.agentId),
        agentId: hold.agentId,
        amount: hold.amount,
      }),
      known === null ? Promise.resolve(null) : this.announce(manager, hold, known),
    ]);
    if (known !== null) {
      if (credited.repaid !== 0n || credited.balances.get(code) !== known)
        throw new Error(`escrow release ${hold.id}: the agent's locked balances moved during the credit`);
    } else {
      await this.announce(manager, hold, credited.balances.get(code) ?? (await this.ledger.balance(manager, code)));
    }
    return { refundIds: credited.refundIds };
  }

  private announce(manager: Queryable, hold: EscrowHoldEntity, available: bigint): Promise<unknown> {
    return this.outbox.record(manager, 'escrow.released', hold.agentId, {
      transactionId: hold.transactionId,
      amount: formatMicros(hold.amount),
      newAvailableBalance: formatMicros(available),
    });
  }
}
