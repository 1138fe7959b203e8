import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock, newUuid } from '@app/common';
import { AppConfig } from '@app/config';
import { HoldLease, LeaseHeartbeat, Queryable, queryRows } from '@app/database';
import { ChainSender } from './chain/chain-sender';
import { SettlementAdapter } from './settlement/settlement.adapter';

export const PAYOUT_MAX_ATTEMPTS = 5;
const FENCED = Symbol('fenced');

/** A table of payouts (withdrawals, refunds): where the recipient and the amount to send live. */
export interface PayoutTable {
  table: 'withdrawals' | 'refunds';
  toColumn: string;
  amountColumn: string;
}

/** `claimToken`: the owner completes or fails the row only while it still holds this claim. */
export type PayoutOutcome =
  | { kind: 'sent'; txHash: string; claimToken: string }
  | { kind: 'failed'; error: string; claimToken: string }
  | { kind: 'skipped' };

/**
 * Sends money out of the platform wallet for one row. Claims it (pending, or processing with an
 * expired claim, PAYOUT_CLAIM_MS, renewed by LeaseHeartbeat while this process sends) under a fresh
 * claim token; the adapter decides an earlier attempt's transfer from the chain before anything new
 * is signed, and a new transfer is persisted only while the token is still the row's (the fence), so
 * a sender that stalled past its claim can never sign a second transfer. `failed` only when nothing
 * can land: the transfer reverted, or none was ever signed by the last attempt (read again after the
 * attempt, so a transfer signed during it counts). Anything else throws so the queue retries (the
 * sweeper picks the row up if the job is gone).
 */
@Injectable()
export class PayoutSender {
  private readonly logger = new Logger(PayoutSender.name);

  constructor(
    private readonly adapter: SettlementAdapter,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly heartbeat: LeaseHeartbeat,
  ) {}

  /** Claims and sends a payout; nothing is claimed while the last invariant check failed (G15: payouts paused). */
  send(t: PayoutTable, id: string): Promise<PayoutOutcome> {
    // The claim is renewed while this process sends (a receipt wait outlasts it); a dead process's lapses in one claim.
    return this.heartbeat.holding((hold) => this.claimAndSend(t, id, hold));
  }

  private async claimAndSend(t: PayoutTable, id: string, hold: HoldLease): Promise<PayoutOutcome> {
    const now = this.clock.now();
    const claimToken = newUuid();
    const claim = new Date(now.getTime() + this.config.payoutClaimMs);
    const [row] = await queryRows<{
      to: string;
      amount: string;
      chainTxId: string | null;
      signedTx: string | null;
      attempts: number;
    }>(
      this.dataSource.manager,
      `UPDATE ${t.table} SET status = 'processing', attempts = attempts + 1, locked_until = $2, claim_token = $4
        WHERE id = $1 AND (status = 'pending' OR (status = 'processing' AND (locked_until IS NULL OR locked_until < $3)))
          AND NOT EXISTS (SELECT 1 FROM invariant_status WHERE NOT ok)
        RETURNING ${t.toColumn} AS "to", ${t.amountColumn} AS "amount", chain_tx_id AS "chainTxId", signed_tx AS "signedTx", attempts`,
      [id, claim, now, claimToken],
    );
    if (!row) return { kind: 'skipped' };
    hold(claim, (from, to) => this.renewClaim(t, id, claimToken, from, to), this.config.payoutClaimMs);
    const fence = (sql: Queryable, tx: { id: string; txHash: string; signedTx: string }) =>
      this.bind(sql, t, id, claimToken, tx);
    try {
      const chainTxId = row.chainTxId ?? (row.signedTx ? await this.adoptLegacy(row.signedTx, fence) : null);
      if (chainTxId === FENCED) return { kind: 'skipped' };
      const outcome = await this.adapter.transfer({
        payoutId: id,
        to: row.to,
        amount: BigInt(row.amount),
        chainTxId,
        fence,
      });
      if (outcome.kind === 'sent') return { kind: 'sent', txHash: outcome.txHash, claimToken };
      if (outcome.kind === 'reverted')
        return { kind: 'failed', error: `transfer ${outcome.txHash} reverted`, claimToken };
      if (outcome.kind === 'fenced') return { kind: 'skipped' };
      throw new Error('the transfer is signed and not mined yet; it will be checked again');
    } catch (err) {
      const error = (err as Error).message?.slice(0, 500) ?? 'transfer failed';
      const [current] = await queryRows<{ chainTxId: string | null; signedTx: string | null }>(
        this.dataSource.manager,
        `SELECT chain_tx_id AS "chainTxId", signed_tx AS "signedTx" FROM ${t.table} WHERE id = $1`,
        [id],
      );
      // Failed (money back) only when no transfer was ever signed for it, by this version or an earlier one.
      if (row.attempts >= PAYOUT_MAX_ATTEMPTS && current && !current.chainTxId && !current.signedTx)
        return { kind: 'failed', error, claimToken };
      await this.dataSource.query(
        `UPDATE ${t.table} SET error = $2, locked_until = NULL WHERE id = $1 AND status = 'processing' AND claim_token = $3`,
        [id, error, claimToken],
      );
      this.logger.warn({ table: t.table, id, attempts: row.attempts, err: error }, 'payout not finished; will retry');
      throw err;
    }
  }

  /**
   * A transfer signed by a version before the chain sender (its `signed_tx` stored, no
   * `chain_tx_id`) may still land: it is adopted as a persisted chain transaction and decided from
   * the chain, never signed a second time.
   */
  private async adoptLegacy(
    signedTx: string,
    fence: Parameters<ChainSender['adopt']>[2],
  ): Promise<string | typeof FENCED> {
    const sender = this.adapter.chainSender();
    if (!sender) throw new Error('a signed transfer is stored but no chain sender is configured');
    const adopted = await sender.adopt(signedTx, 'transfer', fence);
    return adopted ? adopted.id : FENCED;
  }

  /** Moves the claim from `from` to `to` while this claim still holds the row (not taken over, not finished). */
  private async renewClaim(t: PayoutTable, id: string, claimToken: string, from: Date, to: Date): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `UPDATE ${t.table} SET locked_until = $4
        WHERE id = $1 AND claim_token = $2 AND status = 'processing' AND locked_until = $3 RETURNING id`,
      [id, claimToken, from, to],
    );
    return rows.length === 1;
  }

  /** The fence: binds a newly signed transfer to the row only while this claim holds it. */
  private async bind(
    sql: Queryable,
    t: PayoutTable,
    id: string,
    claimToken: string,
    tx: { id: string; txHash: string; signedTx: string },
  ): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      sql,
      `UPDATE ${t.table} SET chain_tx_id = $3, tx_hash = $4, signed_tx = $5 WHERE id = $1 AND claim_token = $2 AND status = 'processing' RETURNING id`,
      [id, claimToken, tx.id, tx.txHash, tx.signedTx],
    );
    return rows.length === 1;
  }

  /** Rows that need the worker (for the sweeper): pending, or claimed by a worker that died. */
  async due(t: PayoutTable, limit = 200): Promise<string[]> {
    return (await this.dueSince(t, limit)).map((r) => r.id);
  }

  /** The same, with when each became due: a pending row when it was written (its job was enqueued then), a claim when it lapsed. */
  async dueSince(t: PayoutTable, limit = 200): Promise<{ id: string; dueAt: Date }[]> {
    return this.dataSource.query(
      `SELECT id, CASE WHEN status = 'pending' THEN created_at ELSE coalesce(locked_until, created_at) END AS "dueAt"
         FROM ${t.table} WHERE status = 'pending' OR (status = 'processing' AND (locked_until IS NULL OR locked_until < $1))
        ORDER BY created_at LIMIT $2`,
      [this.clock.now(), limit],
    );
  }
}
