import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@app/database';

export interface ExecutionPageRow {
  requestId: string;
  agentId: string;
  agentName: string | null;
  capabilityId: string;
  payer: string | null;
  status: string;
  settlementStatus: string | null;
  agentFee: string;
  platformFee: string;
  latencyMs: number | null;
  transactionId: string | null;
  hasReceipt: boolean;
  createdAt: Date;
  completedAt: Date | null;
}

/** A position in a list: created_at to the microsecond (ISO text, UTC) and the id. */
export interface ExecutionPosition {
  at: string;
  id: string;
}

/** Whose executions: a paying wallet's (ix_executions_payer) or an agent's (ix_executions_agent_created). */
export type ExecutionOwner = { payer: string } | { agentId: string };

/** Only this status or capability (each optional). */
export interface ExecutionFilter {
  status?: string;
  capabilityId?: string;
}

/** What one page read: the rows that match, and where the scan stopped (null: nothing older is left). */
export interface ScannedPage {
  rows: (ExecutionPageRow & { position: ExecutionPosition })[];
  scannedTo: ExecutionPosition | null;
}

const POSITION = `to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * Pages of executions, newest first, by keyset (created_at, id): a payer's through
 * `ix_executions_payer` (migration PayerExecutions), an agent's through `ix_executions_agent_created`.
 * A page reads at most `window` executions older than its cursor, whatever the filter: a rare
 * status costs a bounded scan, and the caller pages on from where the scan stopped.
 */
@Injectable()
export class ExecutionPagesRepository {
  constructor(private readonly tx: TransactionRunner) {}

  async page(
    owner: ExecutionOwner,
    filter: ExecutionFilter,
    limit: number,
    window: number,
    before: ExecutionPosition | null,
  ): Promise<ScannedPage> {
    const who = 'payer' in owner ? 'lower(e.payer) = $1' : 'e.agent_id = $1';
    const scanned = await this.tx.query<{ id: string; at: string; hit: boolean }>(
      `SELECT e.id, ${POSITION} AS at,
              ($5::text IS NULL OR e.status = $5) AND ($6::text IS NULL OR e.capability_id = $6) AS hit
         FROM executions e
        WHERE ${who} AND ($3::timestamptz IS NULL OR (e.created_at, e.id) < ($3::timestamptz, $4))
        ORDER BY e.created_at DESC, e.id DESC LIMIT $2`,
      [
        'payer' in owner ? owner.payer.toLowerCase() : owner.agentId,
        window,
        before?.at ?? null,
        before?.id ?? null,
        filter.status ?? null,
        filter.capabilityId ?? null,
      ],
    );
    const hits = scanned.filter((r) => r.hit).slice(0, limit);
    const last = scanned.at(-1);
    const scannedTo = scanned.length === window && last ? { at: last.at, id: last.id } : null;
    if (hits.length === 0) return { rows: [], scannedTo };
    const rows = await this.tx.query<ExecutionPageRow & { at: string }>(
      `SELECT e.id AS "requestId", e.agent_id AS "agentId", a.name AS "agentName", e.capability_id AS "capabilityId",
              e.payer, e.status, e.settlement_status AS "settlementStatus", e.agent_fee::text AS "agentFee",
              e.platform_fee::text AS "platformFee", e.execution_time_ms AS "latencyMs",
              e.transaction_id AS "transactionId", e.receipt IS NOT NULL AS "hasReceipt", e.created_at AS "createdAt",
              e.completed_at AS "completedAt", ${POSITION} AS at
         FROM executions e LEFT JOIN agents a ON a.id = e.agent_id
        WHERE e.id = ANY($1)`,
      [hits.map((h) => h.id)],
    );
    const byId = new Map(rows.map((r) => [r.requestId, r]));
    return {
      rows: hits.flatMap((h) => {
        const r = byId.get(h.id);
        return r ? [{ ...r, position: { at: h.at, id: h.id } }] : [];
      }),
      scannedTo,
    };
  }
}
