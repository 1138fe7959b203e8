import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppException } from '@app/common';
import { Queryable, queryRows } from '@app/database';
import { Accounts, LedgerService } from '@app/ledger';
import { RefundEntity } from './entities/refund.entity';
import { splitAgentFee } from './fees';
import { RefundsService } from './refunds.service';
import { AgentCredit } from './debts/agent-credit';
import { AgentDebtsRepository } from './debts/agent-debts.repository';

export type DisputeOutcome = 'agent_wins' | 'client_wins' | 'split';

/** A charged transaction as a dispute sees it. */
export interface DisputedTransaction {
  id: string;
  payerWallet: string;
  agentId: string;
  agentFee: bigint;
  platformCut: bigint;
  agentEarnings: bigint;
  status: string;
  disputeId: string | null;
  completedAt: Date;
  paymentId: string | null;
  /** SHA-256 of the x402 header that paid it (null: paid from a chain's budget): a payer's proof. */
  paymentHeaderHash: string | null;
}

export interface Freeze {
  /** What the agent still held of the transaction's earnings, now in `agent:<id>:frozen`. */
  frozen: bigint;
  /** Where it was: still held in escrow, or already released to available. */
  from: 'escrow' | 'available';
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
  refund: RefundEntity | null;
  /** Refunds that the release opened by repaying older debts (wake them after commit). */
  repaymentRefundIds: string[];
}

/**
 * The money of a dispute (resolutions §7), always inside the caller's transaction: filing freezes
 * what the agent still holds of the transaction's earnings (escrow while held, else available);
 * resolving releases it, refunds it with the platform's cut to the payer through a real payout, or
 * splits. The platform never advances what the agent already withdrew: that part becomes the
 * agent's debt to the payer (agent_debts), unless an admin's resolution advances it explicitly.
 * Owns the changes to the payments rows this touches (the transaction's status, the escrow hold,
 * the refund row, the debt).
 */
@Injectable()
export class DisputeMoney {
  constructor(
    private readonly ledger: LedgerService,
    private readonly refunds: RefundsService,
    private readonly credit: AgentCredit,
    private readonly debts: AgentDebtsRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** A transaction by id (null: none). */
  async transaction(id: string, sql: Queryable = this.dataSource): Promise<DisputedTransaction | null> {
    const [row] = await queryRows<Record<string, string | Date | null>>(
      sql,
      `SELECT t.id, t.payer_wallet, t.providing_agent_id, t.agent_fee::text, t.platform_cut::text, t.agent_earnings::text, t.status, t.dispute_id,
              coalesce(t.completed_at, t.created_at) AS completed_at, t.payment_id, p.header_hash
         FROM transactions t LEFT JOIN payments p ON p.id = t.payment_id WHERE t.id = $1`,
      [id],
    );
    return row ? toDisputed(row) : null;
  }

  /** What a dispute's debt says now (null: it left none). */
  debtOf(disputeId: string): ReturnType<AgentDebtsRepository['ofDispute']> {
    return this.debts.ofDispute(disputeId);
  }

  /**
   * Marks the transaction disputed (only a `completed` one, exactly once: the row lock makes
   * concurrent filings queue, and the losers find it disputed) and freezes what the agent still
   * holds of its earnings: all of them while the hold is held, else what available has of them.
   */
  async freeze(
    sql: Queryable,
    transactionId: string,
    disputeId: string,
  ): Promise<Freeze & { transaction: DisputedTransaction }> {
    const [row] = await queryRows<Record<string, string | Date | null>>(
      sql,
      `UPDATE transactions SET status = 'disputed', dispute_id = $2 WHERE id = $1 AND status = 'completed' AND dispute_id IS NULL
       RETURNING id, payer_wallet, providing_agent_id, agent_fee::text, platform_cut::text, agent_earnings::text, status, dispute_id,
                 coalesce(completed_at, created_at) AS completed_at, payment_id`,
      [transactionId, disputeId],
    );
    if (!row)
      throw new AppException('DISPUTE_EXISTS', 'This transaction is already disputed or refunded', { transactionId });
    const tx = toDisputed(row);
    const agentId = tx.agentId;
    const amount = tx.agentEarnings;
    // Waits for a release of this hold in flight: it then reads `released` and freezes from available.
    const [hold] = await queryRows<{ id: string; status: string }>(
      sql,
      `SELECT id, status FROM escrow_holds WHERE transaction_id = $1 FOR UPDATE`,
      [transactionId],
    );
    if (hold?.status === 'held') {
      await sql.query(`UPDATE escrow_holds SET status = 'frozen' WHERE id = $1`, [hold.id]);
      if (amount > 0n) {
        await this.ledger.post(sql, {
          code: 'dispute.frozen',
          refId: disputeId,
          legs: [
            { account: Accounts.agentEscrow(agentId), amount: -amount },
            { account: Accounts.agentFrozen(agentId), amount },
          ],
          metadata: { transactionId, holdId: hold.id, from: 'escrow' },
        });
      }
      return { frozen: amount, from: 'escrow', transaction: tx };
    }
    const available = Accounts.agentAvailable(agentId);
    const balances = await this.ledger.lockBalances(sql, [available.code, Accounts.agentFrozen(agentId).code]);
    const frozen = minBig(balances.get(available.code)!, amount);
    if (frozen > 0n) {
      await this.ledger.post(sql, {
        code: 'dispute.frozen',
        refId: disputeId,
        legs: [
          { account: available, amount: -frozen },
          { account: Accounts.agentFrozen(agentId), amount: frozen },
        ],
        metadata: { transactionId, from: 'available', withdrawn: (amount - frozen).toString() },
      });
    }
    return { frozen, from: 'available', transaction: tx };
  }

  /**
   * Settles a frozen dispute: `agent_wins` releases the frozen earnings; `client_wins` gives back the
   * agent fee (earnings plus the platform's cut); `split` half of it (rounded down to the micro-USDC),
   * divided between earnings and cut by the fee rule. The earnings' part comes from what was frozen;
   * what the agent had withdrawn of it becomes its debt to the payer (refunded as its later earnings
   * repay it), or, with `advance` (an admin's explicit decision), is paid by the platform now and
   * owed by the agent to the platform. The rest of the frozen earnings is released to the agent.
   * The transaction is `refunded` when all of the agent fee goes back (client_wins), else `completed`.
   */
  async settle(
    sql: Queryable,
    d: {
      disputeId: string;
      transaction: DisputedTransaction;
      frozen: bigint;
      outcome: DisputeOutcome;
      advance?: boolean;
    },
  ): Promise<DisputeSettlement> {
    const { transaction: tx, frozen } = d;
    const refundFee = d.outcome === 'agent_wins' ? 0n : d.outcome === 'client_wins' ? tx.agentFee : tx.agentFee / 2n;
    const share =
      refundFee === tx.agentFee ? { cut: tx.platformCut, earnings: tx.agentEarnings } : splitAgentFee(refundFee);
    const fromEarnings = minBig(share.earnings, frozen);
    const shortfall = share.earnings - fromEarnings;
    const advanced = d.advance ? shortfall : 0n;
    const outstanding = shortfall - advanced;
    const refundedNow = share.cut + fromEarnings + advanced;
    const released = frozen - fromEarnings;
    const payer = tx.payerWallet;
    // The transaction's row, then every account this takes, in the ledger's lock order (revenue
    // before the agent's accounts, as a charge takes them), before the postings that need them.
    await sql.query(`UPDATE transactions SET status = $2 WHERE id = $1 AND status = 'disputed'`, [
      tx.id,
      d.outcome === 'client_wins' ? 'refunded' : 'completed',
    ]);
    await this.ledger.openAccounts(sql, [Accounts.clientRefundPayable(payer), Accounts.clientRefundDue(payer)]);
    await this.ledger.lockBalances(sql, [
      Accounts.platformRevenue().code,
      Accounts.clientRefundPayable(payer).code,
      Accounts.clientRefundDue(payer).code,
      Accounts.agentFrozen(tx.agentId).code,
      Accounts.agentAvailable(tx.agentId).code,
      Accounts.agentOwed(tx.agentId).code,
    ]);
    let refund: RefundEntity | null = null;
    if (refundedNow > 0n) {
      const refundId = `rfd_${d.disputeId.slice(4)}`;
      refund = await this.refunds.open(sql, {
        id: refundId,
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
        metadata: { transactionId: tx.id, refundId, outcome: d.outcome, advanced: advanced.toString() },
      });
    }
    if (shortfall > 0n) {
      const debt = { agentId: tx.agentId, disputeId: d.disputeId, transactionId: tx.id, amount: shortfall };
      await this.debts.insert(sql, {
        id: `dbt_${d.disputeId.slice(4)}`,
        ...debt,
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
      refundAmount: refundFee,
      refundedNow,
      outstanding,
      advanced,
      releasedAmount: released,
      refund,
      repaymentRefundIds,
    };
  }
}

function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function toDisputed(r: Record<string, string | Date | null>): DisputedTransaction {
  return {
    id: r.id as string,
    payerWallet: r.payer_wallet as string,
    agentId: r.providing_agent_id as string,
    agentFee: BigInt(r.agent_fee as string),
    platformCut: BigInt(r.platform_cut as string),
    agentEarnings: BigInt(r.agent_earnings as string),
    status: r.status as string,
    disputeId: r.dispute_id as string | null,
    completedAt: new Date(r.completed_at as Date),
    paymentId: r.payment_id as string | null,
    paymentHeaderHash: (r.header_hash as string | undefined) ?? null,
  };
}
