import { Injectable } from '@nestjs/common';
import { formatMicros, NotFoundException } from '@app/common';
import { ExecutionTimelineRepository, TimelineRow } from '../../timeline/execution-timeline.repository';

export const TIMELINE_EVENTS = [
  'received',
  'running',
  'completed',
  'failed',
  'timeout',
  'charged',
  'settled',
  'settlement_failed',
  'settlement_expired',
  'escrow_held',
  'escrow_released',
  'disputed',
  'dispute_resolved',
  'refund_issued',
  'refund_sent',
] as const;
export type TimelineEventType = (typeof TIMELINE_EVENTS)[number];

export interface TimelineEvent {
  type: TimelineEventType;
  at: string;
  /** ms since the execution was received. */
  offsetMs: number;
  /** USDC, six decimals: what was paid, held, or refunded. */
  amount?: string;
  txHash?: string;
  /** refund_issued: why; dispute_resolved: the outcome; escrow_held: when it is released. */
  detail?: string;
}

export interface ExecutionTimeline {
  /** Null when asked for by its transaction id (see GetExecutionTimeline). */
  requestId: string | null;
  transactionId: string | null;
  status: string;
  events: TimelineEvent[];
}

/**
 * `GET /execute/:id/timeline`: what happened to an execution and its money, oldest first, each at
 * the time its row recorded: received, running (the agent called), its outcome, charged, settled,
 * held in escrow and released, disputed and resolved, refunds issued and sent. A sync execution's
 * rows are written once it ended, so its reception is the earliest time recorded (the agent's
 * call). By request id or transaction id; public like the execution's status (no payer, input or output).
 * A transaction id is public, a request id is the payer's only (it names the run to read or retry, and
 * is half of what reads its output): asked for by its transaction id, an execution answers no request id.
 */
@Injectable()
export class GetExecutionTimeline {
  constructor(private readonly repo: ExecutionTimelineRepository) {}

  async execute(id: string): Promise<ExecutionTimeline> {
    const row = await this.repo.find(id);
    if (!row) throw new NotFoundException('EXECUTION_NOT_FOUND', 'Execution', id);
    const events: TimelineEvent[] = [];
    let start = row.createdAt.getTime();
    const add = (type: TimelineEventType, at: Date | string | null, extra: Partial<TimelineEvent> = {}) => {
      if (at === null) return;
      const t = new Date(at);
      events.push({ type, at: t.toISOString(), offsetMs: t.getTime() - start, ...extra });
    };
    // A run being retried (pending again) keeps its last attempt's times: no outcome until the retry ends.
    const ended = row.status !== 'pending' && row.completedAt !== null ? row.completedAt : null;
    const runAt = ended && row.executionTimeMs !== null ? ended.getTime() - row.executionTimeMs : null;
    start = Math.min(start, row.paidAt?.getTime() ?? start, runAt ?? start);
    add('received', new Date(start));
    if (runAt !== null) add('running', new Date(runAt));
    if (ended) add(outcomeOf(row), ended);
    if (row.chargedAt) add('charged', row.chargedAt, { amount: micros(row.chargedAmount) });
    if (row.settledAt) add('settled', row.settledAt, row.txHash ? { txHash: row.txHash } : {});
    else if (row.settlementStatus === 'settlement_failed' || row.settlementStatus === 'settlement_expired')
      add(row.settlementStatus, row.updatedAt);
    if (row.heldAt)
      add('escrow_held', row.heldAt, {
        amount: micros(row.heldAmount),
        ...(row.releaseAt ? { detail: `until ${new Date(row.releaseAt).toISOString()}` } : {}),
      });
    if (row.releasedAt) add('escrow_released', row.releasedAt, { amount: micros(row.heldAmount) });
    if (row.disputedAt) add('disputed', row.disputedAt, { detail: row.disputeStatus ?? undefined });
    if (row.resolvedAt) add('dispute_resolved', row.resolvedAt, { detail: row.outcome ?? undefined });
    for (const r of row.refunds) {
      add('refund_issued', r.createdAt, { amount: micros(r.amount), detail: r.reason });
      if (r.status === 'completed')
        add('refund_sent', r.completedAt, { amount: micros(r.amount), ...(r.txHash ? { txHash: r.txHash } : {}) });
    }
    // Stable: events of the same instant keep the order above (received, running, the outcome, the charge).
    events.sort((a, b) => a.offsetMs - b.offsetMs);
    return {
      requestId: id.startsWith('tx_') ? null : row.requestId,
      transactionId: row.transactionId,
      status: row.status,
      events,
    };
  }
}

const micros = (v: string | null) => formatMicros(BigInt(v ?? 0));

function outcomeOf(row: TimelineRow): TimelineEventType {
  if (row.status === 'failed' || row.status === 'timeout') return row.status;
  return 'completed';
}
