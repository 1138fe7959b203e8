import { Injectable } from '@nestjs/common';
import { Page } from '@app/common';
import { GetDisputedTransaction } from '@app/payments';
import { DisputeView } from '../../entities/dispute.entity';
import { disputeRefund } from '../../dispute-refund.rule';
import { DisputeViews } from '../../dispute-views';
import { DisputesRepository } from '../../disputes.repository';

/**
 * A dispute awaiting the platform's decision, with what the decision moves: the transaction's agent
 * fee and earnings, and per outcome that refunds, the part of the earnings the agent has already
 * withdrawn (the frozen amount does not cover it), which `advance: true` refunds now at the
 * platform's expense and otherwise becomes the agent's debt to the payer.
 */
export type OpenDispute = DisputeView & {
  agentFee: bigint;
  agentEarnings: bigint;
  advanceable: { client_wins: bigint; split: bigint };
};

/** `GET /admin/disputes`: disputes an admin can resolve (pending or responded), oldest first, with their total. */
@Injectable()
export class ListOpenDisputes {
  constructor(
    private readonly repo: DisputesRepository,
    private readonly views: DisputeViews,
    private readonly disputedTransaction: GetDisputedTransaction,
  ) {}

  async execute(page: Page): Promise<{ disputes: OpenDispute[]; total: number }> {
    const { disputes, total } = await this.repo.listOpen(page);
    const txs = await this.disputedTransaction.many(disputes.map((d) => d.transactionId));
    const open = await Promise.all(
      disputes.map(async (d) => {
        const tx = txs.get(d.transactionId)!;
        // As SettleDisputedEarnings splits it: the outcome's earnings beyond what was frozen.
        const shortfall = (outcome: 'client_wins' | 'split') => {
          const earnings = disputeRefund(outcome, tx).earnings;
          return earnings > d.frozenAmount ? earnings - d.frozenAmount : 0n;
        };
        return Object.assign(await this.views.of(d), {
          agentFee: tx.agentFee,
          agentEarnings: tx.agentEarnings,
          advanceable: { client_wins: shortfall('client_wins'), split: shortfall('split') },
        });
      }),
    );
    return { disputes: open, total };
  }
}
