import { Injectable } from '@nestjs/common';
import { AppException } from '@app/common';
import { Queryable } from '@app/database';
import { Accounts, LedgerService } from '@app/ledger';
import { AgentCredit } from '../../debts/agent-credit';
import { AgentDebtsRepository } from '../../debts/agent-debts.repository';
import { RefundEntity } from '../../entities/refund.entity';
import { RefundsService } from '../../refunds.service';
import { DisputedTransaction, TransactionsRepository } from '../../repositories/transactions.repository';
import { Freeze, FreezeHeldEarnings } from '../freeze-held-earnings/freeze-held-earnings.usecase';

export interface SettleDisputedEarningsCommand {
  disputeId: string;
  transaction: DisputedTransaction;
  /**
   * What filing froze of the transaction's earnings; null: nothing yet (an unverified filing), so a refund first
   * freezes what the agent holds of them now (FreezeHeldEarnings), the rest its debt as for earnings withdrawn.
   */
  frozen: bigint | null;
  /** What the resolution gives back to the payer (disputes' rule): of the agent fee, and its parts of earnings and platform cut. */
  refund: { fee: bigint; cut: bigint; earnings: bigint };
  /** The transaction's status once settled. */
  transactionStatus: 'refunded' | 'completed';
  /** The ids of the refund row and of the debt, if the settlement opens them (chosen by the caller: idempotent). */
  refundId: string;
  debtId: string;
  /** An admin's explicit decision: the platform pays now what the agent had withdrawn (the agent owes it to the platform). */
  advance?: boolean;
  /** The outcome's name, kept in the postings' metadata. */
  outcome: string;
}

export interface DisputeSettlement {
  /** What the resolution gives back to the payer (of the agent fee: earnings plus the platform's cut). */
  refundAmount: bigint;
  /** Refunded now (a refund row): the frozen earnings' part, the platform's cut, and an admin's advance. */
  refundedNow: bigint;
  /** The part of the earnings the agent had withdrawn: its debt to the payer, refunded as it repays it. */
  outstanding: bigint;
  /** Advanced by the platform on an admin's explicit decision (the agent owes it to the platform). */
  advanced: bigint;
  /** Released to the agent (its debts repaid first). */
  releasedAmount: bigint;
  /** What this settlement froze first (the command's `frozen` was null and the outcome refunds), else null. */
  frozenNow: Freeze | null;
  refund: RefundEntity | null;
  /** Refunds that the release opened by repaying older debts (wake them after commit). */
  repaymentRefundIds: string[];
}

/**
 * Settles a frozen dispute inside the resolution's transaction (resolutions §7): gives back to the
 * payer what the caller says the outcome refunds. The earnings' part comes from what was frozen; what
 * the agent had withdrawn of it becomes its debt to the payer (agent_debts, refunded as its later
 * earnings repay it), or, with `advance`, is paid by the platform now and owed by the agent to the
 * platform. The rest of the frozen earnings is released to the agent (its debts repaid first).
 */
@Injectable()
export class SettleDisputedEarnings {
  constructor(
    private readonly transactions: TransactionsRepository,
    private readonly ledger: LedgerService,
    private readonly refunds: RefundsService,
    private readonly credit: AgentCredit,
    private readonly debts: AgentDebtsRepository,
    private readonly freezeHeld: FreezeHeldEarnings,
  ) {}

  async execute(sql: Queryable, d: SettleDisputedEarningsCommand): Promise<DisputeSettlement> {
    const { transaction: tx, refund: share } = d;
    const payer = tx.payerWallet;
    // The transaction's row, then every account this takes, in the ledger's lock order (revenue
    // before the agent's accounts, as a charge takes them), before the postings that need them.
    // An unverified filing left the transaction undisputed: a refund marks it disputed by this dispute first, so
    // it leaves the agent's record and the payer's spend counts what the agent kept; agent_wins leaves it alone.
    if (d.frozen === null && share.fee > 0n && !(await this.transactions.markDisputed(sql, tx.id, d.disputeId)))
      throw new AppException('INVALID_STATE', 'The disputed transaction is no longer completed', {
        transactionId: tx.id,
      });
    await this.transactions.endDispute(sql, tx.id, d.transactionStatus);
    await this.ledger.openAccounts(sql, [Accounts.clientRefundPayable(payer), Accounts.clientRefundDue(payer)]);
    const accounts = [
      Accounts.platformRevenue().code,
      Accounts.clientRefundPayable(payer).code,
      Accounts.clientRefundDue(payer).code,
      Accounts.agentFrozen(tx.agentId).code,
      Accounts.agentAvailable(tx.agentId).code,
      Accounts.agentOwed(tx.agentId).code,
    ];
    // Nothing frozen at filing (unverified): a refund takes what the agent holds now (its escrow hold locked first,
    // as a release takes it); agent_wins moves nothing.
    const frozenNow =
      d.frozen === null && share.earnings > 0n ? await this.freezeHeld.execute(sql, tx, d.disputeId, accounts) : null;
    if (!frozenNow) await this.ledger.lockBalances(sql, accounts);
    const frozen = frozenNow?.frozen ?? d.frozen ?? 0n;
    const fromEarnings = share.earnings < frozen ? share.earnings : frozen;
    const shortfall = share.earnings - fromEarnings;
    const advanced = d.advance ? shortfall : 0n;
    const outstanding = shortfall - advanced;
    const refundedNow = share.cut + fromEarnings + advanced;
    const released = frozen - fromEarnings;
    let refund: RefundEntity | null = null;
    if (refundedNow > 0n) {
      refund = await this.refunds.open(sql, {
        id: d.refundId,
        wallet: payer,
        amount: refundedNow,
        reason: 'dispute',
        executionId: null,
        transactionId: tx.id,
      });
      await this.ledger.post(sql, {
        code: 'dispute.refunded',
        refId: d.disputeId,
        legs: [
          { account: Accounts.agentFrozen(tx.agentId), amount: -fromEarnings },
          { account: Accounts.platformRevenue(), amount: -share.cut },
          { account: Accounts.agentOwed(tx.agentId), amount: -advanced },
          { account: Accounts.clientRefundPayable(payer), amount: refundedNow },
        ],
        metadata: { transactionId: tx.id, refundId: d.refundId, outcome: d.outcome, advanced: advanced.toString() },
      });
    }
    if (shortfall > 0n) {
      await this.debts.insert(sql, {
        id: d.debtId,
        agentId: tx.agentId,
        disputeId: d.disputeId,
        transactionId: tx.id,
        amount: shortfall,
        creditorWallet: d.advance ? null : payer,
      });
    }
    if (outstanding > 0n) {
      await this.ledger.post(sql, {
        code: 'dispute.debt',
        refId: d.disputeId,
        legs: [
          { account: Accounts.agentOwed(tx.agentId), amount: -outstanding },
          { account: Accounts.clientRefundDue(payer), amount: outstanding },
        ],
        metadata: { transactionId: tx.id, outcome: d.outcome },
      });
    }
    let repaymentRefundIds: string[] = [];
    if (released > 0n) {
      ({ refundIds: repaymentRefundIds } = await this.credit.credit(sql, {
        code: 'dispute.released',
        refId: d.disputeId,
        from: Accounts.agentFrozen(tx.agentId),
        agentId: tx.agentId,
        amount: released,
        metadata: { transactionId: tx.id, outcome: d.outcome },
      }));
    }
    return {
      refundAmount: share.fee,
      refundedNow,
      outstanding,
      advanced,
      releasedAmount: released,
      frozenNow,
      refund,
      repaymentRefundIds,
    };
  }
}
