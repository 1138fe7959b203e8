import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@app/database';

export interface PayerExecutionRow {
  requestId: string;
  agentId: string;
  agentName: string | null;
  capabilityId: string;
  status: string;
  settlementStatus: string | null;
  agentFee: string;
  platformFee: string;
  transactionId: string | null;
  hasReceipt: boolean;
  createdAt: Date;
  completedAt: Date | null;
}

/**
 * A paying wallet's executions, newest first, a page at a time by keyset (created_at, id) through
 * `ix_executions_payer` (migration PayerExecutions). Read-only over executions and agents.
 */
@Injectable()
export class PayerExecutionsRepository {
  constructor(private readonly tx: TransactionRunner) {}

  page(payer: string, limit: number, before: { at: Date; id: string } | null): Promise<PayerExecutionRow[]> {
    return this.tx.query<PayerExecutionRow>(
      `SELECT e.id AS "requestId", e.agent_id AS "agentId", a.name AS "agentName", e.capability_id AS "capabilityId", e.status,
              e.settlement_status AS "settlementStatus", e.agent_fee::text AS "agentFee", e.platform_fee::text AS "platformFee",
              e.transaction_id AS "transactionId", e.receipt IS NOT NULL AS "hasReceipt", e.created_at AS "createdAt",
              e.completed_at AS "completedAt"
         FROM executions e LEFT JOIN agents a ON a.id = e.agent_id
        WHERE lower(e.payer) = $1 AND ($3::timestamptz IS NULL OR (e.created_at, e.id) < ($3, $4))
        ORDER BY e.created_at DESC, e.id DESC LIMIT $2`,
      [payer.toLowerCase(), limit, before?.at ?? null, before?.id ?? null],
    );
  }
}
