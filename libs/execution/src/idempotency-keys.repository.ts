import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PG_NOT_CLAIMED, pgErrorCode, Queryable, queryRows } from '@app/database';

/** Another request holds this idempotency key (still in force): its execution answers. */
export class IdempotencyRace extends Error {}

/**
 * Every SQL statement on `idempotency_keys`: a payer's key (`Idempotency-Key`, or an x402 payment
 * identifier) bound to the execution it started and the request's fingerprint, for 24 hours.
 */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The execution a payer's key points to while the key is in force, with the fingerprint it was bound to (on `sql`: a batch). */
  async find(
    payer: string,
    key: string,
    now: Date,
    sql: Queryable = this.dataSource.manager,
  ): Promise<{ fingerprint: string; executionId: string } | null> {
    const [row] = await queryRows<{ fingerprint: string; executionId: string }>(
      sql,
      `SELECT fingerprint, execution_id AS "executionId" FROM idempotency_keys WHERE payer = $1 AND key = $2 AND expires_at > $3`,
      [payer.toLowerCase(), key, now],
    );
    return row ?? null;
  }

  /** Deletes up to `batch` idempotency keys that expired before `now` (ix_idempotency_keys_expires); answers how many. */
  async pruneExpired(now: Date, batch: number): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      this.dataSource.manager,
      `WITH gone AS (DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE expires_at < $1 LIMIT $2) RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [now, batch],
    );
    return rows[0].n;
  }

  /** Inside the caller's transaction: takes the key (an expired one is taken over); a key in force rejects with IdempotencyRace. */
  claim(
    sql: Queryable,
    k: { payer: string; key: string; fingerprint: string; executionId: string; expiresAt: Date; now: Date },
  ): Promise<unknown> {
    return sql
      .query(
        `WITH k AS (
           INSERT INTO idempotency_keys (payer, key, fingerprint, execution_id, expires_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (payer, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, execution_id = EXCLUDED.execution_id,
              expires_at = EXCLUDED.expires_at, created_at = now()
           WHERE idempotency_keys.expires_at <= $6 RETURNING 1)
         SELECT claimed(count(*), 'idempotency key') FROM k`,
        [k.payer, k.key, k.fingerprint, k.executionId, k.expiresAt, k.now],
      )
      .catch((err: unknown) => {
        throw pgErrorCode(err) === PG_NOT_CLAIMED ? new IdempotencyRace() : err;
      });
  }

  /** Whether a key (in force or not yet pruned) stands for the execution (ix_idempotency_keys_execution). */
  async keyed(executionId: string): Promise<boolean> {
    const [row] = await queryRows<{ keyed: boolean }>(
      this.dataSource.manager,
      `SELECT EXISTS (SELECT 1 FROM idempotency_keys WHERE execution_id = $1) AS keyed`,
      [executionId],
    );
    return row.keyed;
  }

  /** The execution a payer's key (in force) stands for, by the primary key: the payment status's identifier lookup. */
  async executionOf(payer: string, key: string, now: Date): Promise<string | null> {
    return (await this.find(payer, key, now))?.executionId ?? null;
  }
}
