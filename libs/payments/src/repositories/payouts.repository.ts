import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Queryable, queryRows } from '@app/database';

/** The two kinds of payout: money sent out of the platform wallet for a row of `withdrawals` or `refunds`. */
export type PayoutKind = 'withdrawal' | 'refund';

/** A payout's table, and where its recipient and the amount to send live (a refund also sends the held ones it carries). */
const TABLES: Record<PayoutKind, { table: string; to: string; amount: string }> = {
  withdrawal: { table: 'withdrawals', to: 'destination_wallet', amount: 'net_amount' },
  refund: { table: 'refunds', to: 'wallet', amount: 'coalesce(payout_amount, amount)' },
};

/** A payout as its claim answers it: what to send, and what earlier attempts left. */
export interface ClaimedPayout {
  to: string;
  amount: string;
  chainTxId: string | null;
  signedTx: string | null;
  attempts: number;
}

/** A newly signed transfer, persisted with the chain transaction that carries it. */
export interface BoundTransfer {
  id: string;
  txHash: string;
  signedTx: string;
}

/** The statements of one payout table, written once (the table and columns are constants, never input). */
function statements(kind: PayoutKind) {
  const t = TABLES[kind];
  return {
    table: t.table,
    claim: `UPDATE ${t.table} SET status = 'processing', attempts = attempts + 1, locked_until = $2, claim_token = $4
        WHERE id = $1 AND (status = 'pending' OR (status = 'processing' AND (locked_until IS NULL OR locked_until < $3)))
          AND NOT EXISTS (SELECT 1 FROM invariant_status WHERE NOT ok)
        RETURNING ${t.to} AS "to", ${t.amount} AS "amount", chain_tx_id AS "chainTxId", signed_tx AS "signedTx", attempts`,
    signed: `SELECT chain_tx_id AS "chainTxId", signed_tx AS "signedTx" FROM ${t.table} WHERE id = $1`,
    release: `UPDATE ${t.table} SET error = $2, locked_until = NULL WHERE id = $1 AND status = 'processing' AND claim_token = $3`,
    renew: `UPDATE ${t.table} SET locked_until = $4
        WHERE id = $1 AND claim_token = $2 AND status = 'processing' AND locked_until = $3 RETURNING id`,
    bind: `UPDATE ${t.table} SET chain_tx_id = $3, tx_hash = $4, signed_tx = $5 WHERE id = $1 AND claim_token = $2 AND status = 'processing' RETURNING id`,
    dueSince: `SELECT id, CASE WHEN status = 'pending' THEN created_at ELSE coalesce(locked_until, created_at) END AS "dueAt"
         FROM ${t.table} WHERE status = 'pending' OR (status = 'processing' AND (locked_until IS NULL OR locked_until < $1))
        ORDER BY created_at LIMIT $2`,
  };
}

const SQL: Record<PayoutKind, ReturnType<typeof statements>> = {
  withdrawal: statements('withdrawal'),
  refund: statements('refund'),
};

/**
 * The payout state of `withdrawals` and `refunds` (the columns of PayoutRow): the claim, its
 * renewal, the fence that binds a signed transfer, the claim given up, and the sweeper's list. Each
 * table's completion and failure stay with its own repository (WithdrawalsRepository, RefundsRepository).
 */
@Injectable()
export class PayoutsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The table a kind of payout lives in (for the logs). */
  table(kind: PayoutKind): string {
    return SQL[kind].table;
  }

  /**
   * Claims a payout that is pending, or processing with a claim that lapsed, under `claimToken`
   * until `until`; nothing is claimed while the last invariant check failed (payouts paused).
   */
  async claim(kind: PayoutKind, id: string, claimToken: string, until: Date, now: Date): Promise<ClaimedPayout | null> {
    const [row] = await queryRows<ClaimedPayout>(this.dataSource.manager, SQL[kind].claim, [
      id,
      until,
      now,
      claimToken,
    ]);
    return row ?? null;
  }

  /** Moves the claim from `from` to `to` while this claim still holds the row (not taken over, not finished). */
  async renewClaim(kind: PayoutKind, id: string, claimToken: string, from: Date, to: Date): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(this.dataSource.manager, SQL[kind].renew, [id, claimToken, from, to]);
    return rows.length === 1;
  }

  /** The fence, in the chain sender's transaction: binds a newly signed transfer only while this claim holds the row. */
  async bind(sql: Queryable, kind: PayoutKind, id: string, claimToken: string, tx: BoundTransfer): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(sql, SQL[kind].bind, [id, claimToken, tx.id, tx.txHash, tx.signedTx]);
    return rows.length === 1;
  }

  /** What transfer the row holds now (read again after an attempt: one signed during it counts). */
  async signed(kind: PayoutKind, id: string): Promise<{ chainTxId: string | null; signedTx: string | null } | null> {
    const [row] = await queryRows<{ chainTxId: string | null; signedTx: string | null }>(
      this.dataSource.manager,
      SQL[kind].signed,
      [id],
    );
    return row ?? null;
  }

  /** An attempt that did not finish: its error recorded and its claim given up (due again at once), while it holds it. */
  async releaseClaim(kind: PayoutKind, id: string, claimToken: string, error: string): Promise<void> {
    await this.dataSource.query(SQL[kind].release, [id, error, claimToken]);
  }

  /** Rows that need the worker, with when each became due: a pending row when it was written, a claim when it lapsed. */
  dueSince(kind: PayoutKind, now: Date, limit: number): Promise<{ id: string; dueAt: Date }[]> {
    return this.dataSource.query(SQL[kind].dueSince, [now, limit]);
  }
}
