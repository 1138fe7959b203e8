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

/** Whose executions: a paying wallet's (ix_executions_payer) or an agent's (ix_executions_agent_created). */
export type ExecutionOwner = { payer: string } | { agentId: string };

/** Only this status or capability (each optional). */
export interface ExecutionFilter {
  status?: string;
  capabilityId?: string;
}

/**
 * Pages of executions, newest first, by keyset (created_at, id): a payer's through
 * `ix_executions_payer` (migration PayerExecutions), an agent's through `ix_executions_agent_created`.
 * Read-only over executions and agents.
 */
@Injectable()
export class ExecutionPagesRepository {
  constructor(private readonly tx: TransactionRunner) {}

  page(
    owner: ExecutionOwner,
    filter: ExecutionFilter,
    limit: number,
    before: { at: Date; id: string } | null,
  ): Promise<ExecutionPageRow[]> {
    const who = 'payer' in owner ? 'lower(e.payer) = $1' : 'e.agent_id = $1';
    return this.tx.query<ExecutionPageRow>(
      `SELECT e.id AS "requestId", e.agent_id AS "agentId", a.name AS "agentName", e.capability_id AS "capabilityId",
              e.payer, e.status, e.settlement_status AS "settlementStatus", e.agent_fee::text AS "agentFee",
              e.platform_fee::text AS "platformFee", e.execution_time_ms AS "latencyMs",
              e.transaction_id AS "transactionId", e.receipt IS NOT NULL AS "hasReceipt", e.created_at AS "createdAt",
              e.completed_at AS "completedAt"
         FROM executions e LEFT JOIN agents a ON a.id = e.agent_id
        WHERE ${who} AND ($3::timestamptz IS NULL OR (e.created_at, e.id) < ($3, $4))
          AND ($5::text IS NULL OR e.status = $5) AND ($6::text IS NULL OR e.capability_id = $6)
        ORDER BY e.created_at DESC, e.id DESC LIMIT $2`,
      [
        'payer' in owner ? owner.payer.toLowerCase() : owner.agentId,
        limit,
        before?.at ?? null,
        before?.id ?? null,
        filter.status ?? null,
        filter.capabilityId ?? null,
      ],
    );
  }
}
