import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  PG_NOT_CLAIMED,
  PG_UNIQUE_VIOLATION,
  pgConstraint,
  pgErrorCode,
  Queryable,
  queryRows,
  TransactionRunner,
} from '@app/database';
import { AppException } from '@app/common';
import { paymentReplayed } from '@app/x402';
import { PaymentEntity, PaymentPurpose, PaymentStatus } from './entities/payment.entity';
import { Unfinished } from '@app/onchain';

/** A payment due for the worker; `scheduled` when due by its own retry schedule rather than lost. */
export interface DuePayment {
  id: string;
  scheduled: boolean;
}

/** A payment as anyone may read it: its state and on-chain facts, never its signature or header. */
export interface PaymentRecord {
  id: string;
  purpose: PaymentPurpose;
  status: PaymentStatus;
  /** What it paid for once linked: the execution id, the agent id (registration) or a refund id. */
  refId: string | null;
  network: string;
  chainId: number;
  asset: string;
  payer: string;
  value: bigint;
  nonce: string;
  txHash: string | null;
  createdAt: Date;
  settledAt: Date | null;
}

/** The `payments` table: every statement on it. Transitions are checked in SQL, so concurrent writers cannot both win. */
@Injectable()
export class PaymentsRepository {
  constructor(
    private readonly tx: TransactionRunner,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * A plain insert: a nonce already in `payments` violates the unique index, which aborts the
   * statement and the transaction (so this also holds with the COMMIT sent together with it)
   * and answers PAYMENT_REPLAYED.
   */
  async insert(manager: Queryable, p: PaymentEntity): Promise<void> {
    try {
      await manager.query(
        `INSERT INTO payments (id, x402_version, network, chain_id, asset, payer, pay_to, nonce, value, valid_after, valid_before,
                               signature, header_hash, purpose, status, tx_hash, settled_at, settle_attempts, ref_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
        [
          p.id,
          p.x402Version,
          p.network,
          p.chainId,
          p.asset,
          p.payer,
          p.payTo,
          p.nonce,
          p.value.toString(),
          p.validAfter.toString(),
          p.validBefore.toString(),
          p.signature,
          p.headerHash,
          p.purpose,
          p.status,
          p.txHash,
          p.settledAt,
          p.settleAttempts,
          p.refId,
        ],
      );
    } catch (err) {
      if (pgErrorCode(err) === PG_UNIQUE_VIOLATION && pgConstraint(err) === 'ux_payments_authorization')
        throw paymentReplayed();
      throw err;
    }
  }

  /** The insert on a pooled connection, on its own (a reservation nothing else is written with). */
  reserve(p: PaymentEntity): Promise<void> {
    return this.insert(this.dataSource.manager, p);
  }

  /** Whether an authorization (by its nonce) is already in `payments`, whatever its state (on `sql`, or a pooled connection). */
  async authorizationUsed(
    a: { chainId: number; asset: string; payer: string; nonce: string },
    sql: Queryable = this.tx.pooled,
  ): Promise<boolean> {
    const [row] = (await sql.query(
      `SELECT EXISTS (SELECT 1 FROM payments WHERE chain_id = $1 AND asset = $2 AND payer = $3 AND nonce = $4) AS used`,
      [a.chainId, a.asset.toLowerCase(), a.payer.toLowerCase(), a.nonce.toLowerCase()],
    )) as { used: boolean }[];
    return row.used;
  }

  /** The payment row (its id) of an authorization already presented here, or null. */
  async idOfAuthorization(a: Parameters<PaymentsRepository['authorizationUsed']>[0]): Promise<string | null> {
    const sql = `SELECT id FROM payments WHERE chain_id = $1 AND asset = $2 AND payer = $3 AND nonce = $4`;
    const params = [a.chainId, a.asset.toLowerCase(), a.payer.toLowerCase(), a.nonce.toLowerCase()];
    return (await queryRows<{ id: string }>(this.tx.pooled, sql, params))[0]?.id ?? null;
  }

  get(id: string, manager: EntityManager = this.dataSource.manager): Promise<PaymentEntity | null> {
    return manager.findOne(PaymentEntity, { where: { id } });
  }

  /**
   * Payments whose settlement transaction (ix_payments_tx_hash) is `hash`, or, of `payer` only,
   * whose authorization nonce (ix_payments_nonce) is `hash` or whose id is in `ids`; all of `payer`
   * when one is given; newest first, at most `limit`.
   */
  async matching(hash: string | null, ids: string[], payer: string | null, limit: number): Promise<PaymentRecord[]> {
    const rows = await queryRows<Omit<PaymentRecord, 'value'> & { value: string }>(
      this.tx.pooled,
      `SELECT id, purpose, status, ref_id AS "refId", network, chain_id AS "chainId", asset, payer, value::text AS value, nonce,
              tx_hash AS "txHash", created_at AS "createdAt", settled_at AS "settledAt"
         FROM payments WHERE (tx_hash = $1 OR (payer = $4 AND (nonce = $1 OR id = ANY($2::varchar[]))))
          AND ($4::varchar IS NULL OR payer = $4) ORDER BY created_at DESC, id LIMIT $3`,
      [hash, ids, limit, payer?.toLowerCase() ?? null],
    );
    return rows.map((r) => ({ ...r, value: BigInt(r.value) }));
  }

  /** A reserved or failed payment recorded settled inline and linked to `refId`; INVALID_STATE if it was not open for settlement. */
  async settleInline(manager: Queryable, id: string, txHash: string, settledAt: Date, refId: string): Promise<void> {
    // Checked in SQL (claimed), so a COMMIT sent with this statement cannot commit without it.
    try {
      await manager.query(
        `WITH p AS (
           UPDATE payments SET status = 'settled', tx_hash = $2, settled_at = $3, settle_attempts = settle_attempts + 1, next_attempt_at = NULL,
                  last_error = NULL, ref_id = $4 WHERE id = $1 AND status IN ('reserved', 'settlement_failed') RETURNING 1)
         SELECT claimed(count(*), 'payment settlement') FROM p`,
        [id, txHash, settledAt, refId],
      );
    } catch (err) {
      if (pgErrorCode(err) !== PG_NOT_CLAIMED) throw err;
      throw new AppException('INVALID_STATE', `Payment ${id} is not open for settlement`);
    }
  }

  /** Gives back a reservation whose paid work never happened: nothing was charged. */
  async release(paymentId: string): Promise<void> {
    await this.dataSource.query(`UPDATE payments SET status = 'released' WHERE id = $1 AND status = 'reserved'`, [
      paymentId,
    ]);
  }

  /** Links a settled payment to what it paid for, inside the caller's transaction. */
  async bind(manager: Queryable, paymentId: string, refId: string): Promise<void> {
    await manager.query(`UPDATE payments SET ref_id = $2 WHERE id = $1`, [paymentId, refId]);
  }

  /** Binds a payment that nothing else has bound yet; false if something (a recovery's refund) already has. */
  async bindUnbound(manager: Queryable, paymentId: string, refId: string): Promise<boolean> {
    return (
      (
        await queryRows(manager, `UPDATE payments SET ref_id = $2 WHERE id = $1 AND ref_id IS NULL RETURNING id`, [
          paymentId,
          refId,
        ])
      ).length === 1
    );
  }

  /** Claims a payment for settling with a lease (or takes over one whose lease ran out); its attempts, or undefined. */
  async claimSettling(id: string, leaseUntil: Date, now: Date): Promise<{ attempts: number } | undefined> {
    const [claimed] = await queryRows<{ attempts: number }>(
      this.dataSource.manager,
      `UPDATE payments SET status = 'settling', settle_attempts = settle_attempts + 1, next_attempt_at = $2, last_error = NULL
        WHERE id = $1 AND (status IN ('reserved', 'settlement_failed') OR (status = 'settling' AND next_attempt_at <= $3))
        RETURNING settle_attempts AS attempts`,
      [id, leaseUntil, now],
    );
    return claimed;
  }

  /** A settling payment's lease, moved on while it is still `from`: its settlement still runs here (LeaseHeartbeat). */
  async renewSettling(id: string, from: Date, to: Date): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `UPDATE payments SET next_attempt_at = $3 WHERE id = $1 AND status = 'settling' AND next_attempt_at = $2 RETURNING id`,
      [id, from, to],
    );
    return rows.length === 1;
  }

  /** The money moved: recorded even if a takeover that found nothing yet marked it failed meanwhile. */
  async recordSettled(id: string, txHash: string, settledAt: Date): Promise<boolean> {
    const done = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `UPDATE payments SET status = 'settled', tx_hash = $2, settled_at = $3, next_attempt_at = NULL, last_error = NULL
        WHERE id = $1 AND status IN ('settling', 'settlement_failed') RETURNING id`,
      [id, txHash, settledAt],
    );
    return done.length === 1;
  }

  /** Releases a failed (or abandoned settling) payment with its reason; false if another process holds or settled it. */
  async releaseUnsettled(id: string, reason: string, now: Date): Promise<boolean> {
    const released = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `UPDATE payments SET status = 'released', next_attempt_at = NULL, last_error = $2
        WHERE id = $1 AND (status = 'settlement_failed' OR (status = 'settling' AND next_attempt_at <= $3)) RETURNING id`,
      [id, reason, now],
    );
    return released.length === 1;
  }

  /** Records a failed settling attempt, retried at `nextAttemptAt`. */
  async markFailed(id: string, nextAttemptAt: Date, message: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE payments SET status = 'settlement_failed', next_attempt_at = $2, last_error = $3 WHERE id = $1 AND status = 'settling'`,
      [id, nextAttemptAt, message],
    );
  }

  /** A settling attempt whose transaction was sent and not decided: still `settling`, its lease renewed to `nextAttemptAt`. */
  async markUndecided(id: string, nextAttemptAt: Date, message: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE payments SET next_attempt_at = $2, last_error = $3 WHERE id = $1 AND status = 'settling'`,
      [id, nextAttemptAt, message],
    );
  }

  /**
   * Payments of one purpose due for the worker: a retry whose time came, a lapsed lease, settled but
   * never linked (before `settledBefore`), and for a registration a reservation its request never
   * settled (older than `settledBefore`). Execution payments are settled again; registration fees
   * are recovered (`RecoverRegistrationPayment`). `scheduled`: due by the retry schedule the worker
   * drives (a failed attempt, or a sent transaction checked again: `last_error` says why), not lost work.
   */
  async due(
    now: Date,
    settledBefore: Date,
    limit: number,
    purpose: PaymentPurpose = 'execution',
  ): Promise<DuePayment[]> {
    const reserved =
      purpose === 'registration'
        ? `UNION ALL
       (SELECT id, false AS scheduled FROM payments WHERE status = 'reserved' AND purpose = 'registration' AND created_at <= $2 ORDER BY created_at LIMIT $3)`
        : '';
    return this.dataSource.query(
      `(SELECT id, (status = 'settlement_failed' OR last_error IS NOT NULL) AS scheduled FROM payments
         WHERE status IN ('settlement_failed', 'settling') AND purpose = '${purpose}' AND next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT $3)
       UNION ALL
       (SELECT id, false AS scheduled FROM payments WHERE status = 'settled' AND ref_id IS NULL AND purpose = '${purpose}' AND settled_at <= $2 ORDER BY settled_at LIMIT $3)
       ${reserved}`,
      [now, settledBefore, limit],
    );
  }

  /** Payments whose settlement is not final (settling, settlement_failed), oldest first, with their total. */
  async oldestUnsettled(limit: number): Promise<Unfinished> {
    const [rows, [{ total }]] = await Promise.all([
      queryRows<{ id: string; amount: string; status: string; createdAt: Date; error: string | null }>(
        this.dataSource.manager,
        `SELECT id, value::text AS amount, status, created_at AS "createdAt", last_error AS error FROM payments
          WHERE status IN ('settling', 'settlement_failed') ORDER BY created_at, id LIMIT $1`,
        [limit],
      ),
      queryRows<{ total: number }>(
        this.dataSource.manager,
        `SELECT count(*)::int AS total FROM payments WHERE status IN ('settling', 'settlement_failed')`,
      ),
    ]);
    return { rows: rows.map((r) => ({ ...r, amount: BigInt(r.amount) })), total };
  }
}

/** In the chain sender's transaction: the payments a settlement transaction carries get its hash before it is broadcast. */
export function bindSettlementHash(sql: Queryable, paymentIds: string[], txHash: string): Promise<unknown> {
  return sql.query(`UPDATE payments SET tx_hash = $2 WHERE id = ANY($1::varchar[]) AND status = 'settling'`, [
    paymentIds,
    txHash,
  ]);
}
