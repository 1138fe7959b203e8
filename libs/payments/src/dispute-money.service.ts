import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppException } from '@app/common';
import { Queryable, queryRows } from '@app/database';
import { Accounts, LedgerService } from '@app/ledger';
import { RefundEntity } from './entities/refund.entity';
import { splitAgentFee } from './fees';
import { RefundsService } from './refunds.service';

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
  /** The agent's earnings of the transaction, now in `agent:<id>:frozen`. */
  frozen: bigint;
  /** The part the agent's available balance lacked: advanced by the platform, owed by the agent. */
  advanced: bigint;
  /** Where the earnings were: still held in escrow, or already released to available. */
  from: 'escrow' | 'available';
}

export interface DisputeSettlement {
  /** Paid back to the payer (agent fee share: frozen earnings plus the platform's cut). */
  refundAmount: bigint;
  /** Released to the agent (its debt repaid first). */
  releasedAmount: bigint;
  refund: RefundEntity | null;
}

/**
 * The money of a dispute (resolutions §7), always inside the caller's transaction: filing freezes
 * the agent's earnings of the transaction (from escrow while held, else from available, the
 * platform advancing what available lacks); resolving releases them, refunds them with the
 * platform's cut to the payer through a real payout, or splits. Owns the changes to the payments
 * rows this touches (the transaction's status, the escrow hold, the refund row).
 */
@Injectable()
export class DisputeMoney {
  constructor(
    private readonly ledger: LedgerService,
    private readonly refunds: RefundsService,
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

  /**
   * Marks the transaction disputed (only a `completed` one, exactly once: the row lock makes
   * concurrent filings queue, and the losers find it disputed) and freezes its earnings.
   */
  async freeze(sql: Queryable, transactionId: string, disputeId: string): Promise<Freeze & { transaction: DisputedTransaction }> {
    const [row] = await queryRows<Record<string, string | Date | null>>(
      sql,
      `UPDATE transactions SET status = 'disputed', dispute_id = $2 WHERE id = $1 AND status = 'completed' AND dispute_id IS NULL
       RETURNING id, payer_wallet, providing_agent_id, agent_fee::text, platform_cut::text, agent_earnings::text, status, dispute_id,
                 coalesce(completed_at, created_at) AS completed_at, payment_id`,
      [transactionId, disputeId],
    );
    if (!row) throw new AppException('DISPUTE_EXISTS', 'This transaction is already disputed or refunded', { transactionId });
    const tx = toDisputed(row);
    const agentId = tx.agentId;
    const amount = tx.agentEarnings;
    // Waits for a release of this hold in flight: it then reads `released` and freezes from available.
    const [hold] = await queryRows<{ id: string; status: string }>(sql, `SELECT id, status FROM escrow_holds WHERE transaction_id = $1 FOR UPDATE`, [transactionId]);
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
      return { frozen: amount, advanced: 0n, from: 'escrow', transaction: tx };
    }
    const available = Accounts.agentAvailable(agentId);
    const balances = await this.ledger.lockBalances(sql, [available.code, Accounts.agentFrozen(agentId).code, Accounts.agentOwed(agentId).code]);
    const fromAvailable = minBig(balances.get(available.code)!, amount);
    const advanced = amount - fromAvailable;
    if (amount > 0n) {
      await this.ledger.post(sql, {
        code: 'dispute.frozen',
        refId: disputeId,
        legs: [
          { account: available, amount: -fromAvailable },
          { account: Accounts.agentOwed(agentId), amount: -advanced },
          { account: Accounts.agentFrozen(agentId), amount },
        ],
        metadata: { transactionId, from: 'available', advanced: advanced.toString() },
      });
    }
    return { frozen: amount, advanced, from: 'available', transaction: tx };
  }

  /**
   * Settles a frozen dispute: `agent_wins` releases the frozen earnings; `client_wins` refunds the
   * agent fee (frozen earnings + the platform's cut); `split` refunds half the agent fee (rounded
   * down to the micro-USDC), taken from the earnings and the cut by the fee rule, and releases the
   * rest of the earnings. A refund opens a payout row; the caller enqueues it after commit. The
   * transaction is `refunded` when all of the agent fee went back (client_wins), else `completed`
   * again (a split refunds part, as the unused part of a variable price does).
   */
  async settle(sql: Queryable, d: { disputeId: string; transaction: DisputedTransaction; frozen: bigint; outcome: DisputeOutcome }): Promise<DisputeSettlement> {
    const { transaction: tx, frozen } = d;
    const refundFee = d.outcome === 'agent_wins' ? 0n : d.outcome === 'client_wins' ? tx.agentFee : tx.agentFee / 2n;
    const share = refundFee === tx.agentFee ? { cut: tx.platformCut, earnings: tx.agentEarnings } : splitAgentFee(refundFee);
    const fromEarnings = minBig(share.earnings, frozen);
    const fromRevenue = refundFee - fromEarnings;
    const released = frozen - fromEarnings;
    // The transaction's row, then every account this takes, in the ledger's lock order (revenue
    // before the agent's accounts, as a charge takes them), before the postings that need them.
    await sql.query(`UPDATE transactions SET status = $2 WHERE id = $1 AND status = 'disputed'`, [tx.id, d.outcome === 'client_wins' ? 'refunded' : 'completed']);
    await this.ledger.lockBalances(sql, [
      Accounts.platformRevenue().code,
      Accounts.clientRefundPayable(tx.payerWallet).code,
      Accounts.agentFrozen(tx.agentId).code,
      Accounts.agentAvailable(tx.agentId).code,
      Accounts.agentOwed(tx.agentId).code,
    ]);
    let refund: RefundEntity | null = null;
    if (refundFee > 0n) {
      const refundId = `rfd_${d.disputeId.slice(4)}`;
      const opened = this.refunds.open(sql, { id: refundId, wallet: tx.payerWallet, amount: refundFee, reason: 'dispute', executionId: null, transactionId: tx.id });
      const posted = this.ledger.post(sql, {
        code: 'dispute.refunded',
        refId: d.disputeId,
        legs: [
          { account: Accounts.agentFrozen(tx.agentId), amount: -fromEarnings },
          { account: Accounts.platformRevenue(), amount: -fromRevenue },
          { account: Accounts.clientRefundPayable(tx.payerWallet), amount: refundFee },
        ],
        metadata: { transactionId: tx.id, refundId, outcome: d.outcome },
      });
      [refund] = await Promise.all([opened, posted]);
    }
    if (released > 0n) {
      await this.ledger.creditAgent(sql, {
        code: 'dispute.released',
        refId: d.disputeId,
        from: Accounts.agentFrozen(tx.agentId),
        agentId: tx.agentId,
        amount: released,
        metadata: { transactionId: tx.id, outcome: d.outcome },
      });
    }
    return { refundAmount: refundFee, releasedAmount: released, refund };
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
