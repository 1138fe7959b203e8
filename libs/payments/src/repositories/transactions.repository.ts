import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { Page } from '@app/common';
import { Queryable, queryRows } from '@app/database';
import { TransactionEntity } from '../entities/transaction.entity';

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

/** An agent's totals over its charges, withdrawals and holds (one statement). */
export interface EarningsSummary {
  earned: bigint;
  executions: number;
  withdrawn: bigint;
  heldCount: number;
  heldTotal: bigint;
}

const DISPUTED_COLUMNS = `id, payer_wallet, providing_agent_id, agent_fee::text, platform_cut::text, agent_earnings::text, status, dispute_id,
  coalesce(completed_at, created_at) AS completed_at, payment_id`;

/** Every statement on `transactions` (the charges) outside the charge itself (EscrowHoldsRepository writes it with its hold). */
/** A filtered history reads at most the agent's newest this many transactions. */
export const HISTORY_FILTER_WINDOW = 10_000;

@Injectable()
export class TransactionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async disputed(id: string, sql: Queryable = this.dataSource): Promise<DisputedTransaction | null> {
    const [row] = await queryRows<Record<string, string | Date | null>>(
      sql,
      `SELECT t.id, t.payer_wallet, t.providing_agent_id, t.agent_fee::text, t.platform_cut::text, t.agent_earnings::text, t.status, t.dispute_id,
              coalesce(t.completed_at, t.created_at) AS completed_at, t.payment_id, p.header_hash
         FROM transactions t LEFT JOIN payments p ON p.id = t.payment_id WHERE t.id = $1`,
      [id],
    );
    return row ? toDisputed(row) : null;
  }

  /** Several transactions as disputes see them, in one statement, by id (missing ones are absent). */
  async disputedMany(ids: string[]): Promise<Map<string, DisputedTransaction>> {
    if (ids.length === 0) return new Map();
    const rows = await queryRows<Record<string, string | Date | null>>(
      this.dataSource,
      `SELECT t.id, t.payer_wallet, t.providing_agent_id, t.agent_fee::text, t.platform_cut::text, t.agent_earnings::text, t.status, t.dispute_id,
              coalesce(t.completed_at, t.created_at) AS completed_at, t.payment_id, p.header_hash
         FROM transactions t LEFT JOIN payments p ON p.id = t.payment_id WHERE t.id = ANY($1)`,
      [ids],
    );
    return new Map(rows.map((r) => [String(r.id), toDisputed(r)]));
  }

  /**
   * Marks a `completed`, undisputed transaction disputed by `disputeId` (the row lock queues concurrent filings), or
   * finds it already marked by that dispute. Null: it was neither.
   */
  async markDisputed(sql: Queryable, id: string, disputeId: string): Promise<DisputedTransaction | null> {
    const [row] = await queryRows<Record<string, string | Date | null>>(
      sql,
      `UPDATE transactions SET status = 'disputed', dispute_id = $2
        WHERE id = $1 AND ((status = 'completed' AND dispute_id IS NULL) OR (status = 'disputed' AND dispute_id = $2))
       RETURNING ${DISPUTED_COLUMNS}`,
      [id, disputeId],
    );
    return row ? toDisputed(row) : null;
  }

  /** Locks a `completed`, undisputed transaction, left as it is (an unverified filing). Null: it was not. */
  async lockUndisputed(sql: Queryable, id: string): Promise<DisputedTransaction | null> {
    const [row] = await queryRows<Record<string, string | Date | null>>(
      sql,
      `SELECT ${DISPUTED_COLUMNS} FROM transactions WHERE id = $1 AND status = 'completed' AND dispute_id IS NULL FOR UPDATE`,
      [id],
    );
    return row ? toDisputed(row) : null;
  }

  async endDispute(sql: Queryable, id: string, status: 'refunded' | 'completed'): Promise<void> {
    await sql.query(`UPDATE transactions SET status = $2 WHERE id = $1 AND status = 'disputed'`, [id, status]);
  }

  async agentExists(agentId: string): Promise<boolean> {
    const rows = await queryRows(this.dataSource.manager, `SELECT 1 FROM agents WHERE id = $1`, [agentId]);
    return rows.length > 0;
  }

  async earningsSummary(agentId: string): Promise<EarningsSummary> {
    const [row] = await queryRows<{
      earned: string;
      executions: number;
      withdrawn: string;
      held_count: number;
      held_total: string;
    }>(
      this.dataSource.manager,
      `SELECT (SELECT coalesce(sum(agent_earnings), 0) FROM transactions WHERE providing_agent_id = $1)::text AS earned,
              (SELECT count(*) FROM transactions WHERE providing_agent_id = $1)::int AS executions,
              (SELECT coalesce(sum(amount), 0) FROM withdrawals WHERE agent_id = $1 AND status = 'completed')::text AS withdrawn,
              (SELECT count(*) FROM escrow_holds WHERE agent_id = $1 AND status = 'held')::int AS held_count,
              (SELECT coalesce(sum(amount), 0) FROM escrow_holds WHERE agent_id = $1 AND status = 'held')::text AS held_total`,
      [agentId],
    );
    return {
      earned: BigInt(row.earned),
      executions: row.executions,
      withdrawn: BigInt(row.withdrawn),
      heldCount: row.held_count,
      heldTotal: BigInt(row.held_total),
    };
  }

  /**
   * Newest first. Unfiltered, the page's ids come from the (agent, created_at, id) index alone, so a
   * deep OFFSET skips index entries, not rows; then only the page's rows are read. With a status or
   * capability filter, the filter applies to the agent's newest HISTORY_FILTER_WINDOW transactions
   * (each of those is read to test it): a bounded read, whatever the filter.
   */
  async history(
    agentId: string,
    page: Page & { status?: string; capabilityId?: string },
  ): Promise<TransactionEntity[]> {
    const filtered = page.status !== undefined || page.capabilityId !== undefined;
    const ids = await queryRows<{ id: string }>(
      this.dataSource.manager,
      filtered
        ? `SELECT id FROM (
             SELECT id, created_at, status, capability_id FROM transactions WHERE providing_agent_id = $1
              ORDER BY created_at DESC, id DESC LIMIT ${HISTORY_FILTER_WINDOW}) newest
            WHERE ($4::text IS NULL OR status = $4) AND ($5::text IS NULL OR capability_id = $5)
            ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`
        : `SELECT id FROM transactions WHERE providing_agent_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [agentId, page.limit, page.offset, ...(filtered ? [page.status ?? null, page.capabilityId ?? null] : [])],
    );
    if (ids.length === 0) return [];
    const rows = await this.dataSource.manager.find(TransactionEntity, { where: { id: In(ids.map((r) => r.id)) } });
    const byId = new Map(rows.map((t) => [t.id, t]));
    return ids.map((r) => byId.get(r.id)!).filter(Boolean);
  }

  findById(id: string): Promise<TransactionEntity | null> {
    return this.dataSource.manager.findOne(TransactionEntity, { where: { id } });
  }

  /** The agent's earnings released to available from charges completed since `since` (the filing window of `windowS`): their total and when the last frees. */
  async releasedInsideWindow(
    sql: Queryable,
    agentId: string,
    since: Date,
    windowS: number,
  ): Promise<{ total: bigint; until: Date | null }> {
    const [row] = await queryRows<{ total: string; until: Date | null }>(
      sql,
      `SELECT coalesce(sum(amount), 0)::text AS total, max(frees_at) AS until FROM (${INSIDE_WINDOW}) r`,
      [agentId, since, windowS],
    );
    return { total: BigInt(row.total), until: row.until ? new Date(row.until) : null };
  }

  /**
   * Of those earnings (`total` of them), the first moment the ones still inside their window leave
   * `amount` withdrawable out of `available` (null: never within the window).
   */
  async freesAt(
    sql: Queryable,
    agentId: string,
    since: Date,
    windowS: number,
    m: { total: bigint; available: bigint; amount: bigint },
  ): Promise<Date | null> {
    const [at] = await queryRows<{ at: Date }>(
      sql,
      `SELECT frees_at AS at FROM (SELECT frees_at, $4::bigint - sum(amount) OVER (ORDER BY frees_at, id) AS still FROM (${INSIDE_WINDOW}) r) c
        WHERE $5::bigint - least(still, $5::bigint) >= $6::bigint ORDER BY frees_at LIMIT 1`,
      [agentId, since, windowS, m.total.toString(), m.available.toString(), m.amount.toString()],
    );
    return at ? new Date(at.at) : null;
  }

  /** Whether the upgrade to 1.2 found the agent's record established under 1.1's rule (migration ReserveRecordAtUpgrade). */
  async establishedAtUpgrade(sql: Queryable, agentId: string): Promise<boolean> {
    const [row] = await queryRows<{ marked: boolean }>(
      sql,
      `SELECT reserve_established_at IS NOT NULL AS marked FROM agents WHERE id = $1`,
      [agentId],
    );
    return row?.marked ?? false;
  }

  /**
   * The agent's established record (resolutions §6): over its oldest `scan` charges made before
   * `before`, the agent fees settled and never disputed, from payers other than its owner that have
   * paid at least `minSpend` to other owners' agents in matured charges (`payer_spend_elsewhere`,
   * migrations ReputationWeight, MaturedPayerSpend), each payer counted up to what it paid elsewhere;
   * and how many such payers there are. Bounded: `scan` index rows, one lookup per payer.
   */
  async fundedRecord(
    sql: Queryable,
    agentId: string,
    before: Date,
    minSpend: bigint,
    scan: number,
  ): Promise<{ volume: bigint; payers: number }> {
    const [row] = await queryRows<{ volume: string; payers: number }>(
      sql,
      `SELECT coalesce(sum(least(v.volume, v.elsewhere)) FILTER (WHERE v.elsewhere >= $4), 0)::text AS volume,
              (count(*) FILTER (WHERE v.elsewhere >= $4))::int AS payers FROM (
         SELECT p.payer, sum(p.agent_fee) AS volume, payer_spend_elsewhere(p.payer, a.owner) AS elsewhere
           FROM (SELECT lower(t.payer_wallet) AS payer, t.agent_fee, t.status, t.dispute_id FROM transactions t
                  WHERE t.providing_agent_id = $1 AND t.created_at <= $2 ORDER BY t.created_at LIMIT $3) p,
                (SELECT lower(wallet) AS owner FROM agents WHERE id = $1) a
          WHERE p.status = 'completed' AND p.dispute_id IS NULL AND p.agent_fee > 0 AND p.payer <> a.owner
          GROUP BY p.payer, a.owner) v`,
      [agentId, before, scan, minSpend.toString()],
    );
    return { volume: BigInt(row.volume), payers: row.payers };
  }
}

/** The agent's earnings released to available whose transactions can still be disputed ($1 agent, $2 window start, $3 window seconds). */
const INSIDE_WINDOW = `SELECT t.id, t.agent_earnings AS amount, coalesce(t.completed_at, t.created_at) + make_interval(secs => $3) AS frees_at
  FROM transactions t JOIN escrow_holds h ON h.transaction_id = t.id AND h.status = 'released'
 WHERE t.providing_agent_id = $1 AND t.status = 'completed' AND t.agent_earnings > 0 AND coalesce(t.completed_at, t.created_at) > $2`;

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
