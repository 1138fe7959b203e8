import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { TransactionRunner } from '@app/database';
import { Accounts, LedgerService } from '@app/ledger';
import { Metrics } from '@app/metrics';
import { OutboxService } from '@app/outbox';
import { WithdrawalsRepository } from '../../repositories/withdrawals.repository';
import { PayoutSender } from '../../payout-sender';
import { withdrawalEventData } from '../../withdrawal-payout';
import { FailWithdrawal } from '../fail-withdrawal/fail-withdrawal.usecase';

/**
 * The worker's `withdrawal.process`: the payout sender claims the row and sends the net amount;
 * then the withdrawal completes (withdrawing -> chain and the fee to revenue), or fails (amount
 * back to available). Throws to let the queue retry.
 */
@Injectable()
export class ProcessWithdrawal {
  constructor(
    private readonly repo: WithdrawalsRepository,
    private readonly payouts: PayoutSender,
    private readonly failWithdrawal: FailWithdrawal,
    private readonly ledger: LedgerService,
    private readonly outbox: OutboxService,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {}

  async execute(id: string): Promise<'completed' | 'failed' | 'skipped'> {
    const state = await this.processOnce(id);
    if (state !== 'skipped') this.metrics.payouts.inc({ kind: 'withdrawal', state });
    return state;
  }

  private async processOnce(id: string): Promise<'completed' | 'failed' | 'skipped'> {
    const outcome = await this.payouts.send('withdrawal', id);
    if (outcome.kind === 'skipped') return 'skipped';
    if (outcome.kind === 'failed')
      return (await this.failWithdrawal.execute(id, outcome.error, outcome.claimToken)) ? 'failed' : 'skipped';
    return (await this.complete(id, outcome.txHash, outcome.claimToken)) ? 'completed' : 'skipped';
  }

  /** Completes the withdrawal only while `claimToken` still holds it. */
  private async complete(id: string, txHash: string, claimToken: string): Promise<boolean> {
    return this.tx.run(async (manager) => {
      const w = await this.repo.transition(manager, id, ['processing'], 'completed', this.clock.now(), {
        txHash,
        claimToken,
      });
      if (!w) return false;
      await this.ledger.post(manager, {
        code: 'withdrawal.completed',
        refId: id,
        legs: [
          { account: Accounts.agentWithdrawing(w.agentId), amount: -w.amount },
          { account: Accounts.worldChain(), amount: w.netAmount },
          { account: Accounts.platformRevenue(), amount: w.fee },
        ],
      });
      await this.outbox.record(manager, 'withdrawal.completed', w.agentId, { ...withdrawalEventData(w), txHash });
      return true;
    });
  }
}
