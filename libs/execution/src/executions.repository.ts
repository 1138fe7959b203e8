import type { SignedReceipt } from '@x402/extensions/offer-receipt';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Queryable, queryRows } from '@app/database';
import { ExecutionEntity, SettlementStatus } from './entities/execution.entity';
import type { UnchargedPayload } from './uncharged-payload';

/** An execution as the payment status names it: its id (the request id), its run and its settlement. */
export type ExecutionRef = Pick<ExecutionEntity, 'id' | 'status' | 'settlementStatus' | 'chainId'> & {
  paymentId: string;
};

/** What a finished run writes. */
export interface RunCompletion {
  output: Record<string, unknown>;
  executionTimeMs: number;
  completedAt: Date;
  agentFee: bigint;
  usageTokens: number | null;
}

export interface RunFailure {
  status: 'failed' | 'timeout';
  error: string;
  timeMs: number;
  completedAt: Date;
  /** False when the call never reached the agent (it is gone, or the guard refused its address): no reputation penalty. */
  reachedAgent?: boolean;
  /** True when the agent answered 4xx (it refused the request): failed for the client, no reputation penalty. */
  refused?: boolean;
  /** True when the output broke the platform's cap for an input that large (callerFilledCap): no reputation penalty. */
  platformLimit?: boolean;
}

/**
 * Every SQL statement on `executions`. Writes that must abort their
 * transaction when they touch no row (another run won) go through `claimed()` (SQLSTATE AG001),
 * so they hold even with COMMIT sent in the same round trip.
 */
@Injectable()
export class ExecutionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  findById(id: string): Promise<ExecutionEntity | null> {
    return this.dataSource.manager.findOne(ExecutionEntity, { where: { id } });
  }

  findByPayment(paymentId: string): Promise<ExecutionEntity | null> {
    return this.dataSource.manager.findOne(ExecutionEntity, { where: { paymentId } });
  }

  /** Inside the caller's transaction: a completed execution whose whole charge went back to its payer (a dispute the client won). */
  async markRefunded(sql: Queryable, id: string): Promise<void> {
    await sql.query(
      `UPDATE executions SET status = 'refunded', updated_at = now() WHERE id = $1 AND status = 'completed'`,
      [id],
    );
  }

  /**
   * The execution a charge paid for: through its payment (unique index) when x402 paid it, else the
   * agent's executions walked back from the charge's time (ix_executions_agent_created; the
   * execution was created shortly before its charge), so no index on transaction_id is written by
   * every charge for a read made only when a charge is disputed.
   */
  async findByCharge(c: {
    transactionId: string;
    paymentId: string | null;
    agentId: string;
    chargedAt: Date;
  }): Promise<ExecutionEntity | null> {
    if (c.paymentId) return this.findByPayment(c.paymentId);
    const [row] = await this.dataSource.query(
      `SELECT id FROM executions WHERE agent_id = $1 AND created_at <= $2 AND transaction_id = $3 ORDER BY created_at DESC LIMIT 1`,
      [c.agentId, c.chargedAt, c.transactionId],
    );
    return row ? this.findById(row.id) : null;
  }

  /** Every column of an execution row, as it stands in memory. */
  insert(sql: Queryable, e: ExecutionEntity): Promise<unknown> {
    return sql.query(
      `INSERT INTO executions (id, agent_id, capability_id, payer, input, output, status, settlement_status, agent_error, execution_time_ms, agent_fee,
                               authorized_agent_fee, pricing_model, unit_price, usage_tokens, refund_id, platform_fee, payment_id, transaction_id, header_hash,
                               is_async, callback_url, locked_until, completed_at, chain_id, receipt, route, input_sha256, output_sha256)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27,
               $28, $29)`,
      [
        e.id,
        e.agentId,
        e.capabilityId,
        e.payer,
        e.input,
        e.output,
        e.status,
        e.settlementStatus,
        e.agentError,
        e.executionTimeMs,
        e.agentFee.toString(),
        e.authorizedAgentFee.toString(),
        e.pricingModel,
        e.unitPrice.toString(),
        e.usageTokens,
        e.refundId,
        e.platformFee.toString(),
        e.paymentId,
        e.transactionId,
        e.headerHash,
        e.isAsync,
        e.callbackUrl,
        e.lockedUntil,
        e.completedAt,
        e.chainId ?? null,
        e.receipt ?? null,
        e.route ?? 'execute',
        e.inputSha256 ?? null,
        e.outputSha256 ?? null,
      ],
    );
  }

  /** Claims a pending execution for a run until `until` (none holds it, or its holder's claim ran out): its agent's id, or null. */
  async claimRun(id: string, until: Date, now: Date): Promise<string | null> {
    const rows = await queryRows<{ agentId: string }>(
      this.dataSource.manager,
      `UPDATE executions SET locked_until = $2 WHERE id = $1 AND status = 'pending' AND (locked_until IS NULL OR locked_until < $3) RETURNING agent_id AS "agentId"`,
      [id, until, now],
    );
    return rows[0]?.agentId ?? null;
  }

  /**
   * Gives back the claim `until` of a run that waits its agent's turn (its job is delayed), marked in
   * line until `inLine`: the sweeper leaves it alone until then (its job is not lost before).
   */
  async parkRun(id: string, until: Date, inLine: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE executions SET locked_until = NULL, next_attempt_at = $3 WHERE id = $1 AND status = 'pending' AND locked_until = $2`,
      [id, until, inLine],
    );
  }

  /**
   * A failed or timed-out run, if the execution is still pending; with `kept`, the payloads it keeps
   * from now on (unchargedPayload), else its payloads as they are (a chain root the sweeps prune).
   */
  async recordFailure(sql: Queryable, id: string, f: RunFailure, kept?: UnchargedPayload): Promise<boolean> {
    const args = [id, f.status, f.error, f.timeMs, f.completedAt];
    const rows = await queryRows<{ id: string }>(
      sql,
      `UPDATE executions SET status = $2, agent_error = $3, execution_time_ms = $4, locked_until = NULL, completed_at = $5, ended_at = now()
              ${kept ? ', input = $6, output = $7, input_sha256 = $8, output_sha256 = $9' : ''} WHERE id = $1 AND status = 'pending' RETURNING id`,
      kept ? [...args, kept.input, kept.output, kept.inputSha256, kept.outputSha256] : args,
    );
    return rows.length === 1;
  }

  /** A successful run whose settlement goes outside Postgres: completed, output withheld, held by this process until `leaseUntil`. */
  async recordCompletion(id: string, c: RunCompletion, leaseUntil: Date): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `UPDATE executions SET status = 'completed', output = $2, execution_time_ms = $3, settlement_status = 'settlement_pending', locked_until = $7, completed_at = $4, ended_at = now(),
              agent_fee = $5, usage_tokens = $6
        WHERE id = $1 AND status = 'pending' RETURNING id`,
      [id, c.output, c.executionTimeMs, c.completedAt, c.agentFee.toString(), c.usageTokens, leaseUntil],
    );
    return rows.length === 1;
  }

  /** In the charge's transaction: completes a pending execution and marks it settled (aborts if another run got there first). */
  completeSettled(
    sql: Queryable,
    id: string,
    c: RunCompletion,
    transactionId: string,
    refundId: string | null,
    receipt: SignedReceipt | null,
  ): Promise<unknown> {
    return sql.query(
      `WITH c AS (
         UPDATE executions SET status = 'completed', output = $2, execution_time_ms = $3, locked_until = NULL, completed_at = $4, ended_at = now(), agent_fee = $5,
                usage_tokens = $6, settlement_status = 'settled', transaction_id = $7, refund_id = $8, receipt = $9
          WHERE id = $1 AND status = 'pending' RETURNING 1)
       SELECT claimed(count(*), 'execution') FROM c`,
      [
        id,
        c.output,
        c.executionTimeMs,
        c.completedAt,
        c.agentFee.toString(),
        c.usageTokens,
        transactionId,
        refundId,
        receipt,
      ],
    );
  }

  /** In the charge's transaction: marks a completed execution settled (aborts if it was charged already). */
  markSettled(
    sql: Queryable,
    id: string,
    transactionId: string,
    refundId: string | null,
    receipt: SignedReceipt | null,
  ): Promise<unknown> {
    return sql.query(
      `WITH c AS (
         UPDATE executions SET settlement_status = 'settled', transaction_id = $2, refund_id = $3, locked_until = NULL, receipt = $4
          WHERE id = $1 AND status = 'completed' AND settlement_status IN ('settlement_pending', 'settlement_failed') RETURNING 1)
       SELECT claimed(count(*), 'execution') FROM c`,
      [id, transactionId, refundId, receipt],
    );
  }

  /**
   * A settlement not done, its lease dropped (its payment's own sweep finishes it): failed (retried
   * later), expired (its authorization expired unused: final; `kept`: what it keeps of its
   * payloads), or pending (sent, not decided yet).
   */
  async markSettlementStatus(id: string, status: Exclude<SettlementStatus, 'settled'>, kept?: UnchargedPayload) {
    await this.dataSource.query(
      `UPDATE executions SET settlement_status = $2, locked_until = NULL, updated_at = now()
              ${kept ? ', input = $3, output = $4, input_sha256 = $5, output_sha256 = $6' : ''} WHERE id = $1 AND settlement_status <> 'settled'`,
      kept ? [id, status, kept.input, kept.output, kept.inputSha256, kept.outputSha256] : [id, status],
    );
  }

  /** The executions these payments paid for (ux_executions_payment), as the payment status names them; or these executions. */
  async refsOf(by: { paymentIds?: string[]; ids?: string[] }): Promise<ExecutionRef[]> {
    const [column, values] = by.ids ? ['id', by.ids] : ['payment_id', by.paymentIds ?? []];
    if (values.length === 0) return [];
    return queryRows<ExecutionRef>(
      this.dataSource.manager,
      `SELECT id, payment_id AS "paymentId", status, settlement_status AS "settlementStatus", chain_id AS "chainId"
         FROM executions
        WHERE ${column} = ANY($1::varchar[]) AND payment_id IS NOT NULL`,
      [values],
    );
  }

  /** The receipt of an answer whose settlement is still pending (the charge replaces it with the final one). */
  async keepPendingReceipt(id: string, receipt: SignedReceipt): Promise<void> {
    await this.dataSource.query(
      `UPDATE executions SET receipt = $2 WHERE id = $1 AND settlement_status = 'settlement_pending'`,
      [id, receipt],
    );
  }

  /**
   * A failed or timed-out execution back to pending for a retry (at most `maxRetries`), held by
   * `lockedUntil` when the caller runs it at once (sync), free for a worker otherwise.
   */
  async resetForRetry(id: string, maxRetries: number, lockedUntil: Date | null): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `UPDATE executions SET status = 'pending', retry_count = retry_count + 1, agent_error = NULL, locked_until = $3, next_attempt_at = NULL
        WHERE id = $1 AND status IN ('failed', 'timeout') AND retry_count < $2 RETURNING id`,
      [id, maxRetries, lockedUntil],
    );
    return rows.length === 1;
  }

  /** Redis lost the lines: every run marked in line is due for the sweeper now (its delayed job is gone). */
  async releaseLine(now: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE executions SET next_attempt_at = $1 WHERE status = 'pending' AND locked_until IS NULL AND next_attempt_at > $1`,
      [now],
    );
  }

  /**
   * Pending executions with nobody running them: async ones never claimed, ones that waited their
   * agent's turn past their mark (their delayed job was lost), and any (sync ones too) whose claim
   * ran out because the process holding it died.
   */
  async dueRuns(now: Date, limit = 200, graceMs = 0): Promise<string[]> {
    // An async execution younger than the grace still has the wake job its request enqueued; one in line has its delayed job.
    const rows = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `SELECT id FROM executions WHERE status = 'pending'
          AND ((locked_until IS NULL AND ((is_async AND next_attempt_at IS NULL AND created_at < $3) OR next_attempt_at < $1)) OR locked_until < $1)
        ORDER BY created_at LIMIT $2`,
      [now, limit, new Date(now.getTime() - graceMs)],
    );
    return rows.map((r) => r.id);
  }

  /** Completed executions whose settlement was left unfinished by a process that died: their payments. */
  async orphanedSettlements(now: Date, limit = 200): Promise<string[]> {
    const rows = await queryRows<{ paymentId: string }>(
      this.dataSource.manager,
      `SELECT payment_id AS "paymentId" FROM executions WHERE status = 'completed' AND settlement_status = 'settlement_pending' AND locked_until < $1
        ORDER BY completed_at LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => r.paymentId);
  }
}
