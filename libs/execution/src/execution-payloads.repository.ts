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

/** What an agent's executions hold in payloads. */
export interface AgentPayloadBytes {
  agentId: string;
  bytes: number;
}

export interface PayloadStorage {
  /** The agents holding the most, most first. */
  top: AgentPayloadBytes[];
  /** Every agent's payload bytes together, and how many agents hold any. */
  totalBytes: number;
  agents: number;
}

/**
 * An execution that no longer changes: not pending, and its settlement (if any) final. A failed run
 * whose authorization is still valid is included: once pruned it cannot be retried.
 */
const SETTLED_FOR_GOOD = `status <> 'pending' AND (settlement_status IS NULL OR settlement_status IN ('settled', 'settlement_expired'))`;

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

  /** Inside the transaction that holds them: the payloads deleted, their hashes kept. */
  async markPruned(
    sql: Queryable,
    rows: { id: string; inputSha256: string | null; outputSha256: string | null }[],
    at: Date,
  ): Promise<void> {
    if (rows.length === 0) return;
    await sql.query(
      `UPDATE executions e SET input = NULL, output = NULL, input_sha256 = h.i, output_sha256 = h.o, payload_pruned_at = $4
         FROM unnest($1::varchar[], $2::varchar[], $3::varchar[]) AS h(id, i, o) WHERE e.id = h.id`,
      [rows.map((r) => r.id), rows.map((r) => r.inputSha256), rows.map((r) => r.outputSha256), at],
    );
  }

  /**
   * The payload bytes (as stored: after TOAST compression, read from each value's header, not
   * decompressed) of the executions that hold one, per agent: the `top` agents and the total. A
   * scan of those rows: the worker runs it every STORAGE_METRICS_INTERVAL_MS, not per request.
   */
  async storageByAgent(top: number): Promise<PayloadStorage> {
    const rows = await queryRows<{ agentId: string; bytes: string; total: string; agents: number }>(
      this.dataSource.manager,
      `WITH per AS (
         SELECT agent_id, sum(coalesce(pg_column_size(input), 0) + coalesce(pg_column_size(output), 0))::bigint AS bytes
           FROM executions WHERE payload_pruned_at IS NULL GROUP BY agent_id)
       SELECT agent_id AS "agentId", bytes::text, (SELECT sum(bytes) FROM per)::text AS total, (SELECT count(*) FROM per)::int AS agents
         FROM per ORDER BY bytes DESC, agent_id LIMIT $1`,
      [top],
    );
    return {
      top: rows.map((r) => ({ agentId: r.agentId, bytes: Number(r.bytes) })),
      totalBytes: rows.length ? Number(rows[0].total) : 0,
      agents: rows.length ? rows[0].agents : 0,
    };
  }
}
