import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { TransactionRunner } from '@app/database';
import { Accounts, LedgerService } from '@app/ledger';
import { OutboxService } from '@app/outbox';
import { WithdrawalsRepository } from '../../repositories/withdrawals.repository';
import { withdrawalEventData } from '../../withdrawal-payout';

/**
 * Gives a withdrawal's amount back to available; the withdrawal ends `failed` (with a claim token,
 * only while that claim still holds it; without one, only a row no sender has claimed). The row
 * keeps the sender's error; the event says only what happened (a node's error text can carry an
 * RPC URL or a key). Answers whether this call failed it.
 */
@Injectable()
export class FailWithdrawal {
  constructor(
    private readonly repo: WithdrawalsRepository,
    private readonly ledger: LedgerService,
    private readonly outbox: OutboxService,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, error: string, claimToken?: string): Promise<boolean> {
    return this.tx.run(async (manager) => {
      const w = await this.repo.transition(manager, id, ['pending', 'processing'], 'failed', this.clock.now(), {
        error,
        claimToken,
      });
      if (!w) return false;
      await this.ledger.post(manager, {
        code: 'withdrawal.failed',
        refId: id,
        legs: [
          { account: Accounts.agentWithdrawing(w.agentId), amount: -w.amount },
          { account: Accounts.agentAvailable(w.agentId), amount: w.amount },
        ],
      });
      await this.outbox.record(manager, 'withdrawal.failed', w.agentId, {
        ...withdrawalEventData(w),
        error: /reverted/.test(error) ? 'The transfer reverted on chain' : 'The transfer could not be sent',
      });
      return true;
    });
  }
}
