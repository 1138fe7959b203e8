import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** An execution that ended, as anyone may see it: no input, output, payer or payment header. */
export interface FeedExecution {
  eventId: string;
  /** The completed run's transaction id; null for a failed run (never its request id: the payer's only). */
  transactionId: string | null;
  agentId: string;
  agentName: string;
  capabilityId: string;
  status: 'completed' | 'failed';
  /** Micro-USDC charged (platform fee + agent fee); null for a failed run, which is not charged. */
  amount: string | null;
  settlementStatus: string | null;
  txHash: string | null;
  network: string | null;
  at: Date;
}

/**
 * The executions the outbox events `execution.completed` and `execution.failed` report, by event id;
 * none in a chain (a chain's readers see its nodes' request ids only by its read scope).
 */
@Injectable()
export class ExecutionFeedRepository {
  constructor(private readonly dataSource: DataSource) {}

  byEvents(eventIds: string[]): Promise<FeedExecution[]> {
    return this.dataSource.query(
      `SELECT o.id AS "eventId", CASE WHEN o.type = 'execution.completed' THEN e.transaction_id END AS "transactionId", e.agent_id AS "agentId", a.name AS "agentName",
              e.capability_id AS "capabilityId", CASE WHEN o.type = 'execution.completed' THEN 'completed' ELSE 'failed' END AS status,
              CASE WHEN o.type = 'execution.completed' THEN (e.platform_fee + e.agent_fee)::text END AS amount,
              e.settlement_status AS "settlementStatus", p.tx_hash AS "txHash", p.network, o.created_at AS at
         FROM outbox_events o
         JOIN executions e ON e.id = o.data->>'requestId'
         JOIN agents a ON a.id = e.agent_id
         LEFT JOIN payments p ON p.id = e.payment_id
        WHERE o.id = ANY($1::varchar[]) AND o.type IN ('execution.completed', 'execution.failed') AND e.chain_id IS NULL
        ORDER BY o.created_at, o.id`,
      [eventIds],
    );
  }
}
