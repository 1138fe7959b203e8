import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@app/common';
import { queryRows } from '@app/database';
import { SettlementAdapter, TransferRevertedError } from './settlement/settlement.adapter';

/** A claimed payout is ours for this long; after that another worker may take it over. */
const CLAIM_MS = 120_000;
export const PAYOUT_MAX_ATTEMPTS = 5;

/** A table of payouts (withdrawals, refunds): where the recipient and the amount to send live. */
export interface PayoutTable {
  table: 'withdrawals' | 'refunds';
  toColumn: string;
  amountColumn: string;
}

export type PayoutOutcome = { kind: 'sent'; txHash: string } | { kind: 'failed'; error: string } | { kind: 'skipped' };

/**
 * Sends money out of the platform wallet for one row: claims it (pending, or processing with
 * an expired claim), transfers through the settlement adapter (which persists the signed
 * transfer before broadcasting it), and reports the outcome for the owner to post. A reverted
 * transfer, or one never signed after the last attempt, is `failed`; anything else throws so
 * the queue retries (and the sweeper picks the row up again if the job is gone).
 */
@Injectable()
export class PayoutSender {
  private readonly logger = new Logger(PayoutSender.name);

  constructor(
    private readonly adapter: SettlementAdapter,
    private readonly clock: Clock,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async send(t: PayoutTable, id: string): Promise<PayoutOutcome> {
    const now = this.clock.now();
    const [row] = await queryRows<{ to: string; amount: string; signedTx: string | null; attempts: number }>(
      this.dataSource.manager,
      `UPDATE ${t.table} SET status = 'processing', attempts = attempts + 1, locked_until = $2
        WHERE id = $1 AND (status = 'pending' OR (status = 'processing' AND (locked_until IS NULL OR locked_until < $3)))
        RETURNING ${t.toColumn} AS "to", ${t.amountColumn} AS "amount", signed_tx AS "signedTx", attempts`,
      [id, new Date(now.getTime() + CLAIM_MS), now],
    );
    if (!row) return { kind: 'skipped' };
    try {
      const { txHash } = await this.adapter.transfer({ payoutId: id, to: row.to, amount: BigInt(row.amount), signedTx: row.signedTx }, async (signedTx, hash) => {
        await this.dataSource.query(`UPDATE ${t.table} SET signed_tx = $2, tx_hash = $3 WHERE id = $1 AND status = 'processing'`, [id, signedTx, hash]);
      });
      return { kind: 'sent', txHash };
    } catch (err) {
      const error = (err as Error).message?.slice(0, 500) ?? 'transfer failed';
      // A reverted transfer moved nothing; one never signed can be abandoned; a signed one may still land.
      if (err instanceof TransferRevertedError || (row.attempts >= PAYOUT_MAX_ATTEMPTS && !row.signedTx)) return { kind: 'failed', error };
      await this.dataSource.query(`UPDATE ${t.table} SET error = $2, locked_until = NULL WHERE id = $1 AND status = 'processing'`, [id, error]);
      this.logger.warn({ table: t.table, id, attempts: row.attempts, err: error }, 'payout transfer failed; will retry');
      throw err;
    }
  }

  /** Rows that need the worker (for the sweeper): pending, or claimed by a worker that died. */
  async due(t: PayoutTable, limit = 200): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM ${t.table} WHERE status = 'pending' OR (status = 'processing' AND (locked_until IS NULL OR locked_until < $1))
        ORDER BY created_at LIMIT $2`,
      [this.clock.now(), limit],
    );
    return rows.map((r) => r.id);
  }
}
