import { Injectable } from '@nestjs/common';
import { AppException, Clock, formatMicros, NotFoundException } from '@app/common';
import { TransactionRunner } from '@app/database';
import { OutboxService } from '@app/outbox';
import { MarkExecutionRefunded } from '@app/execution';
import { GetDisputedTransaction, RefundsService, SettleDisputedEarnings } from '@app/payments';
import { REPUTATION_DELTAS, ReputationRecorder } from '@app/reputation';
import { DisputeResolution, DisputeView } from '../../entities/dispute.entity';
import { DisputeViews } from '../../dispute-views';
import { DisputeOutcome, disputeMoneyIds, disputeRefund } from '../../dispute-refund.rule';
import { DisputesRepository } from '../../disputes.repository';
import { RESOLVED_BY_TIMEOUT } from '../../dispute.rules';

export interface ResolveDisputeCommand {
  disputeId: string;
  outcome: DisputeOutcome;
  note: string | null;
  resolvedBy: string;
  /** An admin's explicit decision to advance what the agent had already withdrawn (never the deadline's). */
  advance?: boolean;
  /** The deadline's resolution: only a dispute still pending with its window closed (anything else is left alone). */
  onlyIfOverdue?: boolean;
}

/**
 * Resolution by the platform (`POST /admin/disputes/:id/resolve`, or the response deadline):
 * one transaction with the dispute row locked, so a dispute is resolved once (a second resolution
 * is INVALID_STATE): the frozen money released, refunded (a payout row, sent by the worker) or split,
 * what the agent had withdrawn of it left as its debt to the payer (or advanced, by an admin's explicit decision),
 * the transaction's status, the stored resolution, the outcome's reputation change and
 * `dispute.resolved`. Answers null when `onlyIfOverdue` found nothing to do.
 */
@Injectable()
export class ResolveDispute {
  constructor(
    private readonly repo: DisputesRepository,
    private readonly disputedTransaction: GetDisputedTransaction,
    private readonly settleEarnings: SettleDisputedEarnings,
    private readonly refunds: RefundsService,
    private readonly executions: MarkExecutionRefunded,
    private readonly reputation: ReputationRecorder,
    private readonly outbox: OutboxService,
    private readonly tx: TransactionRunner,
    private readonly views: DisputeViews,
    private readonly clock: Clock,
  ) {}

  async execute(cmd: ResolveDisputeCommand): Promise<DisputeView | null> {
    const done = await this.tx.run(async (manager) => {
      const d = await this.repo.lock(manager, cmd.disputeId);
      if (!d) throw new NotFoundException('DISPUTE_NOT_FOUND', 'Dispute', cmd.disputeId);
      const now = this.clock.now();
      // An unverified filing (a rebuildable payment header its only proof) never resolves itself: an admin decides.
      if (cmd.onlyIfOverdue && (d.status !== 'pending' || d.respondBy > now || !d.verified)) return null;
      if (d.status === 'resolved')
        throw new AppException('INVALID_STATE', 'This dispute is already resolved', {
          status: d.status,
          resolution: d.resolution,
        });
      const charged = (await this.disputedTransaction.execute(d.transactionId, manager))!;
      const advance = cmd.advance === true && cmd.outcome !== 'agent_wins';
      const { transactionStatus, ...refund } = disputeRefund(cmd.outcome, charged);
      const settled = await this.settleEarnings.execute(manager, {
        disputeId: d.id,
        transaction: charged,
        // Null: an unverified filing froze nothing, so a refund takes what the agent holds now.
        frozen: d.verified || d.frozenAmount > 0n ? d.frozenAmount : null,
        refund,
        transactionStatus,
        ...disputeMoneyIds(d.id),
        outcome: cmd.outcome,
        advance,
      });
      const resolution: DisputeResolution = {
        outcome: cmd.outcome,
        note: cmd.note,
        refundAmount: formatMicros(settled.refundAmount),
        releasedAmount: formatMicros(settled.releasedAmount),
        resolvedBy: cmd.resolvedBy,
        ...(advance ? { advance } : {}),
      };
      // Beside the facts (not public); a dispute filed before then had it in its facts.
      const stored = d.platformEvidence as { requestId?: string | null; facts?: { requestId?: string | null } };
      const requestId = stored.requestId ?? stored.facts?.requestId;
      if (cmd.outcome === 'client_wins' && requestId) await this.executions.execute(manager, requestId);
      if (settled.frozenNow) await this.repo.recordFreeze(manager, d.id, settled.frozenNow);
      await this.repo.resolve(manager, d.id, resolution, now, settled.advanced);
      // An unverified filing moved nothing when filed: it is counted now, still moving nothing.
      if (!d.verified)
        await this.reputation.record(manager, d.agentId, 'dispute.filed', d.id, { payer: null, stake: 0n });
      // The platform decided, unless the window lapsed (then, in the weighted model, the payer's limits apply);
      // what the agent kept of the fee joins the payer's settled spend once the charge matures (CountMaturedSpend).
      // In the weighted model a verified filing's penalty lands now, with a loss (weightedChange).
      const applied = await this.reputation.recordWithDelta(manager, d.agentId, `dispute.${cmd.outcome}`, d.id, {
        payer: null,
        stake: charged.agentFee,
        dispute: { payer: d.clientWallet, verified: d.verified },
        ...(cmd.resolvedBy === RESOLVED_BY_TIMEOUT ? { lapsedFor: d.clientWallet } : {}),
      });
      const reputationDelta = applied?.delta ?? REPUTATION_DELTAS[`dispute.${cmd.outcome}`];
      await this.outbox.record(manager, 'dispute.resolved', d.agentId, {
        disputeId: d.id,
        resolution: cmd.outcome,
        reputationDelta,
      });
      return { refundIds: [...(settled.refund ? [settled.refund.id] : []), ...settled.repaymentRefundIds] };
    });
    if (done === null) return null;
    for (const id of done.refundIds) await this.refunds.enqueue(id);
    return this.views.of((await this.repo.findById(cmd.disputeId))!);
  }
}
