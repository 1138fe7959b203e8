import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { TransactionRunner } from '@app/database';
import { Accounts, LedgerService } from '@app/ledger';
import { Metrics } from '@app/metrics';
import { PayoutSender } from '../../payout-sender';
import { REFUND_RETRY } from '../../refund-payout';
import { RefundsRepository } from '../../repositories/refunds.repository';

/**
 * The worker's `refund.process`: the payout sender claims the refund and sends it; completion posts
 * `refund.paid` for it and for the held refunds its transfer carried. A transfer that failed leaves it
 * owed, `failed`, sent again at its retry time (the sweeper re-drives it) or at once by an admin.
 */
@Injectable()
export class ProcessRefund {
  constructor(
    private readonly repo: RefundsRepository,
    private readonly payouts: PayoutSender,
    private readonly ledger: LedgerService,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {}

  async execute(id: string): Promise<'completed' | 'failed' | 'skipped'> {
    const state = await this.processOnce(id);
    if (state !== 'skipped') this.metrics.payouts.inc({ kind: 'refund', state });
    return state;
  }

  private async processOnce(id: string): Promise<'completed' | 'failed' | 'skipped'> {
    const outcome = await this.payouts.send('refund', id);
    if (outcome.kind === 'skipped') return 'skipped';
    if (outcome.kind === 'failed') {
      await this.repo.markFailed(id, outcome.claimToken, outcome.error, this.clock.now(), REFUND_RETRY);
      return 'failed';
    }
    const done = await this.tx.run(async (manager) => {
      const paid = await this.repo.complete(manager, id, outcome.claimToken, outcome.txHash, this.clock.now());
      for (const p of paid) {
        await this.ledger.post(manager, {
          code: 'refund.paid',
          refId: p.id,
          legs: [
            { account: Accounts.clientRefundPayable(p.wallet), amount: -p.amount },
            { account: Accounts.worldChain(), amount: p.amount },
          ],
          ...(p.id !== id ? { metadata: { carriedBy: id } } : {}),
        });
      }
      return paid.length > 0;
    });
    return done ? 'completed' : 'skipped';
  }
}
