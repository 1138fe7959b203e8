import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Queryable, queryRows } from '@app/database';

/** An execution whose payload is about to be pruned, read under its row lock. */
export interface HeldPayload {
  id: string;
  input: Record<string, unknown> | null;
  output: Record<string, unknown> | null;
}

/** What one agent's (or payer's) executions hold in payloads. */
export interface PayloadBytes {
  /** The agent id, or the payer's wallet (lower case). */
  key: string;
  bytes: number;
}

export interface PayloadStorage {
  /** The agents (payers) holding the most, most first. */
  top: PayloadBytes[];
  /** Every payload byte together, and how many agents (payers) hold any. */
  totalBytes: number;
  holders: number;
}

/**
 * An execution that no longer changes: not pending, and its settlement (if any) final. A failed run
 * whose authorization is still valid is included: once pruned it cannot be retried.
 */
const SETTLED_FOR_GOOD = `status <> 'pending' AND (settlement_status IS NULL OR settlement_status IN ('settled', 'settlement_expired'))`;
/** A run that ended without moving money: failed, timed out, or its authorization expired unsettled. */
const UNCHARGED = `(status IN ('failed', 'timeout') OR settlement_status = 'settlement_expired')`;

/** Who a payload cap counts: an agent's executions, or a payer's. */
export type PayloadScope = 'agent' | 'payer';

/**
 * The statements on the payload columns of `executions` (input, output, their hashes, when they
 * were pruned): the prune, the storage measure and the callback's output read. The rest of the
 * table is ExecutionsRepository's.
 */
@Injectable()
export class ExecutionPayloadsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The stored output of an execution (a completed execution's callback is built from it when sent). */
  async outputOf(id: string): Promise<Record<string, unknown> | null> {
    const [row] = await queryRows<{ output: Record<string, unknown> | null }>(
      this.dataSource.manager,
      `SELECT output FROM executions WHERE id = $1`,
      [id],
    );
    return row?.output ?? null;
  }

  /**
   * Inside the caller's transaction: up to `limit` executions created before `cutoff` that still
   * hold their payload and no longer change, oldest first (ix_executions_payload_kept), locked; rows
   * another transaction holds are skipped.
   */
  holdOldPayloads(sql: Queryable, cutoff: Date, limit: number): Promise<HeldPayload[]> {
    return queryRows<HeldPayload>(
      sql,
      `SELECT id, input, output FROM executions
        WHERE payload_pruned_at IS NULL AND created_at < $1 AND ${SETTLED_FOR_GOOD}
        ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [cutoff, limit],
    );
  }

  /**
   * Like holdOldPayloads, for runs that moved no money (UNCHARGED_PAYLOAD_RETENTION_HOURS):
   * ix_executions_uncharged_kept lists them oldest first.
   */
  holdOldUncharged(sql: Queryable, cutoff: Date, limit: number): Promise<HeldPayload[]> {
    return queryRows<HeldPayload>(
      sql,
      `SELECT id, input, output FROM executions
        WHERE payload_pruned_at IS NULL AND ${UNCHARGED} AND created_at < $1
        ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [cutoff, limit],
    );
  }

  /**
   * Inside the caller's transaction: up to `limit` executions beyond the payload cap of their agent
   * or payer, locked. Each agent's (payer's) executions are counted in-flight first, then charged
   * ones newest first, then uncharged ones newest first: those past `cap` bytes go, uncharged ones
   * first, a charged one only once it ended before `chargedBefore` (its payer had time to read it)
   * and its settlement is final, and only over its own payer's cap: an agent's cap never takes one
   * payer's paid output for what other payers sent the agent (a few cents of large paid inputs would
   * otherwise wipe every honest payer's outputs). A scan of the rows holding payloads (the measure's).
   */
  holdOverCap(sql: Queryable, scope: PayloadScope, cap: number, chargedBefore: Date, limit: number) {
    const key = scope === 'agent' ? 'agent_id::text' : 'payer';
    const charged = scope === 'payer' ? 'r.ended_at < $2' : 'false AND r.ended_at < $2';
    return queryRows<HeldPayload>(
      sql,
      `WITH sized AS (
         SELECT id, ${key} AS k, created_at, ended_at, status,
                CASE WHEN status = 'pending' THEN 0 WHEN ${UNCHARGED} THEN 2 ELSE 1 END AS rank,
                coalesce(pg_column_size(input), 0) + coalesce(pg_column_size(output), 0) AS b
           FROM executions WHERE payload_pruned_at IS NULL),
       over AS (SELECT k FROM sized GROUP BY k HAVING sum(b) > $1),
       ranked AS (
         SELECT s.id, s.rank, s.created_at, s.ended_at, s.b,
                sum(s.b) OVER (PARTITION BY s.k ORDER BY s.rank, s.created_at DESC, s.id DESC) AS upto
           FROM sized s JOIN over USING (k))
       SELECT e.id, e.input, e.output FROM executions e JOIN ranked r ON r.id = e.id
        WHERE r.upto > $1 AND r.b > 0 AND (r.rank = 2 OR ${charged}) AND e.payload_pruned_at IS NULL
          AND e.status <> 'pending' AND (e.settlement_status IS NULL OR e.settlement_status IN ('settled', 'settlement_expired'))
        ORDER BY r.rank DESC, r.created_at LIMIT $3 FOR UPDATE OF e SKIP LOCKED`,
      [cap, chargedBefore, limit],
    );
  }

  /** Inside the transaction that holds them: the payloads deleted, their hashes kept. */
  async markPruned(
    sql: Queryable,
    rows: { id: string; inputSha256: string | null; outputSha256: string | null }[],
    at: Date,
  ): Promise<void> {
    if (rows.length === 0) return;
    await sql.query(
      `UPDATE executions e SET input = NULL, output = NULL, payload_pruned_at = $4,
              input_sha256 = coalesce(h.i, e.input_sha256), output_sha256 = coalesce(h.o, e.output_sha256)
         FROM unnest($1::varchar[], $2::varchar[], $3::varchar[]) AS h(id, i, o) WHERE e.id = h.id`,
      [rows.map((r) => r.id), rows.map((r) => r.inputSha256), rows.map((r) => r.outputSha256), at],
    );
  }

  /**
   * The payload bytes (as stored: after TOAST compression, read from each value's header, not
   * decompressed) of the executions that hold one, per agent or per payer: the `top` ones and the
   * total (ordered by the number, not its text). A scan of those rows: the worker runs it every
   * STORAGE_METRICS_INTERVAL_MS, not per request.
   */
  async storageBy(scope: PayloadScope, top: number): Promise<PayloadStorage> {
    const key = scope === 'agent' ? 'agent_id::text' : 'payer';
    const rows = await queryRows<{ key: string; bytes: string; total: string; holders: number }>(
      this.dataSource.manager,
      `WITH per AS (
         SELECT ${key} AS key, sum(coalesce(pg_column_size(input), 0) + coalesce(pg_column_size(output), 0))::bigint AS bytes
           FROM executions WHERE payload_pruned_at IS NULL GROUP BY 1)
       SELECT key, bytes::text, (SELECT sum(bytes) FROM per)::text AS total, (SELECT count(*) FROM per)::int AS holders
         FROM per ORDER BY per.bytes DESC, per.key LIMIT $1`,
      [top],
    );
    return {
      top: rows.map((r) => ({ key: r.key, bytes: Number(r.bytes) })),
      totalBytes: rows.length ? Number(rows[0].total) : 0,
      holders: rows.length ? rows[0].holders : 0,
    };
  }
}
