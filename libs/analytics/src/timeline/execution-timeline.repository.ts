import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@app/database';

/** A refund of the execution's money, as stored. */
export interface TimelineRefundRow {
  reason: string;
  amount: string;
  status: string;
  createdAt: string;
  completedAt: string | null;
  txHash: string | null;
}

/** What the timeline is built from: the execution and what its money did (null where nothing happened). */
export interface TimelineRow {
  requestId: string;
  transactionId: string | null;
  /** The chain the execution belongs to (its root or a call in it), if any. */
  chainId: string | null;
  status: string;
  settlementStatus: string | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
  executionTimeMs: number | null;
  paidAt: Date | null;
  chargedAt: Date | null;
  chargedAmount: string | null;
  settledAt: Date | null;
  txHash: string | null;
  heldAt: Date | null;
  heldAmount: string | null;
  releaseAt: Date | null;
  releasedAt: Date | null;
  escrowStatus: string | null;
  disputedAt: Date | null;
  disputeStatus: string | null;
  resolvedAt: Date | null;
  outcome: string | null;
  refunds: TimelineRefundRow[];
}

/**
 * One statement: the execution by its request id, or by its transaction id (through the charge's
 * payment, unique on executions; a charge paid from a chain's budget has none, and is found from its
 * agent and time, a chained call being charged as it ends), and its payment, charge, escrow hold, dispute and
 * refunds (its own, a variable price's, its dispute's `rfd_` row). Read-only over other libs' tables.
 */
const TIMELINE = `WITH e AS (
    (SELECT x.* FROM executions x WHERE x.id = $1)
    UNION ALL
    (SELECT x.* FROM transactions t JOIN executions x ON x.payment_id = t.payment_id WHERE t.id = $1)
    UNION ALL
    (SELECT x.* FROM transactions t CROSS JOIN LATERAL (
        SELECT * FROM executions x WHERE x.agent_id = t.providing_agent_id AND x.created_at <= t.created_at AND x.transaction_id = t.id
         ORDER BY x.created_at DESC LIMIT 1) x
      WHERE t.id = $1 AND t.payment_id IS NULL)
    LIMIT 1)
  SELECT e.id AS "requestId", e.transaction_id AS "transactionId", e.chain_id AS "chainId", e.status, e.settlement_status AS "settlementStatus",
         e.created_at AS "createdAt", e.updated_at AS "updatedAt", e.completed_at AS "completedAt", e.execution_time_ms AS "executionTimeMs",
         p.created_at AS "paidAt", c.created_at AS "chargedAt", c.gross_amount::text AS "chargedAmount", p.settled_at AS "settledAt", p.tx_hash AS "txHash",
         h.created_at AS "heldAt", h.amount::text AS "heldAmount", h.release_at AS "releaseAt", h.released_at AS "releasedAt", h.status AS "escrowStatus",
         d.created_at AS "disputedAt", d.status AS "disputeStatus", d.resolved_at AS "resolvedAt", d.resolution->>'outcome' AS outcome,
         (SELECT coalesce(json_agg(json_build_object('reason', r.reason, 'amount', r.amount::text, 'status', r.status, 'createdAt', r.created_at,
                   'completedAt', r.completed_at, 'txHash', r.tx_hash) ORDER BY r.created_at, r.id), '[]'::json)
            FROM refunds r WHERE r.id = e.refund_id OR r.execution_id = e.id OR r.id = 'rfd_' || substr(d.id, 5)) AS refunds
    FROM e
    LEFT JOIN payments p ON p.id = e.payment_id
    LEFT JOIN transactions c ON c.id = e.transaction_id
    LEFT JOIN escrow_holds h ON h.transaction_id = e.transaction_id
    LEFT JOIN disputes d ON d.transaction_id = e.transaction_id`;

@Injectable()
export class ExecutionTimelineRepository {
  constructor(private readonly tx: TransactionRunner) {}

  async find(id: string): Promise<TimelineRow | null> {
    const [row] = await this.tx.query<TimelineRow>(TIMELINE, [id]);
    return row ?? null;
  }
}
