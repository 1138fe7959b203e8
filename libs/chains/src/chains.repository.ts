import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Queryable, queryRows } from '@app/database';
import { CHAIN_COLUMNS, FINISHABLE, nodeColumns, NODE_COLUMNS, UUID, chainOf, nodeOf } from './chain-rows';
import type { ChainEnd, ChainNodeStatus, ChainRow, ChainNodeRow, NewChain } from './chain-rows';

export type { ChainStatus, ChainNodeStatus, ChainRow, ChainNodeRow } from './chain-rows';

/**
 * Every SQL statement on `chains` and `chain_nodes`. Writes that must abort their transaction
 * when they touch no row go through `claimed()` (SQLSTATE AG001), as the executions' do.
 */
@Injectable()
export class ChainsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Reads outside a transaction (for a balance read beside this repository's). */
  get reader(): Queryable {
    return this.dataSource.manager;
  }

  insert(sql: Queryable, c: NewChain): Promise<unknown> {
    return sql.query(
      `INSERT INTO chains (id, root_execution_id, root_agent_id, root_wallet, payment_id, budget, max_depth, trace_id, started_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        c.id,
        c.rootExecutionId,
        c.rootAgentId,
        c.rootWallet.toLowerCase(),
        c.paymentId,
        c.budget.toString(),
        c.maxDepth,
        c.traceId,
        c.startedAt,
        c.expiresAt,
      ],
    );
  }

  /** A chain by its id, its root execution's id (req_) or its root transaction's id (tx_). */
  async find(ref: string, sql: Queryable = this.dataSource.manager): Promise<ChainRow | null> {
    const where = UUID.test(ref)
      ? `id = $1`
      : ref.startsWith('req_')
        ? `root_execution_id = $1`
        : `root_execution_id = (SELECT execution_id FROM chain_nodes WHERE transaction_id = $1 AND depth = 0)`;
    const [row] = await queryRows<Record<string, unknown>>(sql, `SELECT ${CHAIN_COLUMNS} FROM chains WHERE ${where}`, [
      UUID.test(ref) ? ref.toLowerCase() : ref,
    ]);
    return row ? chainOf(row) : null;
  }

  /** Inside the caller's transaction: the chain, its row locked until commit. */
  async lock(sql: Queryable, id: string): Promise<ChainRow | null> {
    const [row] = await queryRows<Record<string, unknown>>(
      sql,
      `SELECT ${CHAIN_COLUMNS} FROM chains WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return row ? chainOf(row) : null;
  }

  /** Funded with `amount` (root cost + budget): the chain runs (aborts unless it was pending). */
  start(sql: Queryable, id: string, amount: bigint): Promise<unknown> {
    return sql.query(
      `WITH c AS (UPDATE chains SET status = 'running', available = $2 WHERE id = $1 AND status = 'pending' RETURNING 1) SELECT claimed(count(*), 'chain') FROM c`,
      [id, amount.toString()],
    );
  }

  /** A funded chain whose root will not run (its payment settled after its request ended): nothing will enter, it can end. */
  endWithoutRoot(sql: Queryable, id: string): Promise<unknown> {
    return sql.query(`UPDATE chains SET root_ended = true WHERE id = $1`, [id]);
  }

  /**
   * A node enters and reserves `cost`: counted while the chain runs and is younger than its time
   * limit, and while its caller may still call (else aborts, 'chain was not claimed'): the root
   * (`parent` null) before the root ended; an agent's call while the calling node (`parent`) runs;
   * a call with the token of the root's caller (`heldByClient`) once the root ended and while a
   * token handed to that caller is valid (`held_until`). The row's latest `available` must cover
   * `cost` (else aborts with AG002 and what is available). Answers what is available after it.
   */
  async enter(
    sql: Queryable,
    id: string,
    parent: string | null,
    now: Date,
    cost: bigint,
    heldByClient = false,
  ): Promise<bigint> {
    const [row] = await queryRows<{ available: string }>(
      sql,
      `WITH c AS (
         UPDATE chains SET running = running + 1, available = CASE WHEN available >= $4 THEN available - $4 ELSE chain_budget_short(available) END
          WHERE id = $1 AND status = 'running' AND expires_at > $2
            AND CASE WHEN $5 THEN root_ended AND NOT hold_released AND held_until > $2
                     WHEN $3::varchar IS NULL THEN NOT root_ended
                     ELSE EXISTS (SELECT 1 FROM chain_nodes p WHERE p.execution_id = $3 AND p.chain_id = $1 AND p.status = 'running'
                                    AND (NOT chains.root_ended OR p.held)) END
          RETURNING available)
       SELECT claimed(count(*), 'chain'), max(available)::text AS available FROM c`,
      [id, now, parent, cost.toString(), heldByClient],
    );
    return BigInt(row.available);
  }

  /** A node's row; `held` when the root's caller made the call, or the calling node is held. */
  insertNode(
    sql: Queryable,
    n: Omit<ChainNodeRow, 'cost' | 'status' | 'transactionId' | 'executionTimeMs' | 'completedAt'>,
    byClient = false,
  ): Promise<unknown> {
    return sql.query(
      `INSERT INTO chain_nodes (execution_id, chain_id, parent_execution_id, agent_id, capability_id, depth, span_id, reserved, started_at, held)
       VALUES ($1, $2, $3::varchar, $4, $5, $6, $7, $8, $9, $10 OR coalesce((SELECT held FROM chain_nodes WHERE execution_id = $3::varchar), false))`,
      [
        n.executionId,
        n.chainId,
        n.parentExecutionId,
        n.agentId,
        n.capabilityId,
        n.depth,
        n.spanId,
        n.reserved.toString(),
        n.startedAt,
        byClient,
      ],
    );
  }

  /**
   * A running node ends (`completed` with its cost and transaction, or `refunded`) and leaves the
   * chain's count; the root's end is recorded too, and `holdUntil` (a token handed to the root's
   * caller with this answer) keeps the chain open until then. Aborts if the node had ended already.
   * Answers whether the chain can now be finished (FINISHABLE), and, when only a held token keeps
   * it open, when it can (`closesAt`: that token's expiry, or the chain's time limit if sooner).
   */
  async end(
    sql: Queryable,
    executionId: string,
    e: {
      status: 'completed' | 'refunded';
      cost: bigint | null;
      transactionId: string | null;
      executionTimeMs: number | null;
      completedAt: Date;
      holdUntil?: Date | null;
    },
  ): Promise<{ chainId: string } & ChainEnd> {
    const [row] = await queryRows<{ chainId: string } & ChainEnd>(
      sql,
      `WITH n AS (
         UPDATE chain_nodes SET status = $2, cost = $3, transaction_id = $4, execution_time_ms = $5, completed_at = $6
          WHERE execution_id = $1 AND status = 'running' RETURNING chain_id, depth, reserved, cost),
       ok AS (SELECT claimed(count(*), 'chain node') FROM n),
       c AS (
         UPDATE chains SET running = running - 1, root_ended = root_ended OR (SELECT depth = 0 FROM n), available = available + (SELECT reserved - coalesce(cost, 0) FROM n),
                held_until = CASE WHEN hold_released THEN held_until ELSE greatest(held_until, $7::timestamptz) END
          WHERE id = (SELECT chain_id FROM n) AND (SELECT * FROM ok) IS NOT NULL
          RETURNING id, running = 0 AND root_ended AS idle, ${FINISHABLE('$6')} AS finishable, least(held_until, expires_at) AS closes,
                    held_until, hold_released)
       SELECT id AS "chainId", finishable, CASE WHEN idle AND NOT finishable THEN closes END AS "closesAt",
              CASE WHEN NOT hold_released THEN held_until END AS "heldUntil" FROM c`,
      [
        executionId,
        e.status,
        e.cost?.toString() ?? null,
        e.transactionId,
        e.executionTimeMs,
        e.completedAt,
        e.holdUntil ?? null,
      ],
    );
    return row;
  }

  /**
   * The root's caller gives up its tokens (`held_until` at `now` at the latest: each is refused from
   * now on). Answers whether the chain can be finished now (false also when it is not running or
   * was never held open).
   */
  async releaseHold(id: string, now: Date): Promise<boolean> {
    const [row] = await queryRows<{ finishable: boolean }>(
      this.dataSource.manager,
      `UPDATE chains SET held_until = least(held_until, $2), hold_released = true WHERE id = $1 AND status = 'running' AND held_until IS NOT NULL
       RETURNING ${FINISHABLE('$2')} AS finishable`,
      [id, now],
    );
    return row?.finishable ?? false;
  }

  /** The chain's final state, once (aborts unless it was running and is FINISHABLE at `completedAt`). */
  finish(
    sql: Queryable,
    id: string,
    f: { status: 'completed' | 'failed' | 'partial'; refundId: string | null; refunded: bigint; completedAt: Date },
  ): Promise<unknown> {
    return sql.query(
      `WITH c AS (
         UPDATE chains SET status = $2, refund_id = $3, refunded = $4, completed_at = $5, available = 0
          WHERE id = $1 AND status = 'running' AND ${FINISHABLE('$5')} RETURNING 1)
       SELECT claimed(count(*), 'chain') FROM c`,
      [id, f.status, f.refundId, f.refunded.toString(), f.completedAt],
    );
  }

  async nodes(chainId: string, sql: Queryable = this.dataSource.manager): Promise<ChainNodeRow[]> {
    const rows = await queryRows<Record<string, unknown>>(
      sql,
      `SELECT ${NODE_COLUMNS} FROM chain_nodes WHERE chain_id = $1 ORDER BY started_at, execution_id`,
      [chainId],
    );
    return rows.map(nodeOf);
  }

  async node(executionId: string, sql: Queryable = this.dataSource.manager): Promise<ChainNodeRow | null> {
    const [row] = await queryRows<Record<string, unknown>>(
      sql,
      `SELECT ${NODE_COLUMNS} FROM chain_nodes WHERE execution_id = $1`,
      [executionId],
    );
    return row ? nodeOf(row) : null;
  }

  /**
   * For a read with a chain token (ChainReadScope): the status of the holder's node, and where
   * `executionId` sits: its depth, and whether it is the holder's node or below it (the walk up
   * its ancestors is at most 5 steps). `holderStatus` and `depth` are null for nodes not in `chainId`.
   */
  async lineage(
    chainId: string,
    holder: string,
    executionId: string,
  ): Promise<{ holderStatus: ChainNodeStatus | null; depth: number | null; inSubtree: boolean }> {
    const [row] = await queryRows<{ holderStatus: ChainNodeStatus | null; depth: number | null; inSubtree: boolean }>(
      this.dataSource.manager,
      `WITH RECURSIVE up(id, parent) AS (
         SELECT execution_id, parent_execution_id FROM chain_nodes WHERE execution_id = $3 AND chain_id = $1
         UNION ALL
         SELECT n.execution_id, n.parent_execution_id FROM chain_nodes n JOIN up ON n.execution_id = up.parent AND n.chain_id = $1)
       SELECT (SELECT status FROM chain_nodes WHERE execution_id = $2 AND chain_id = $1) AS "holderStatus",
              (SELECT depth FROM chain_nodes WHERE execution_id = $3 AND chain_id = $1) AS depth,
              EXISTS (SELECT 1 FROM up WHERE id = $2) AS "inSubtree"`,
      [chainId, holder, executionId],
    );
    return row;
  }

  /** A chain's nodes with the charge of each completed one (its transaction's split), for the cost breakdown. */
  async chargedNodes(
    chainId: string,
  ): Promise<(ChainNodeRow & { platformFee: bigint; agentFee: bigint; platformCut: bigint; agentEarnings: bigint })[]> {
    const rows = await queryRows<Record<string, unknown>>(
      this.dataSource.manager,
      `SELECT ${nodeColumns('n.')}, t.platform_fee AS "platformFee", t.agent_fee AS "agentFee", t.platform_cut AS "platformCut", t.agent_earnings AS "agentEarnings"
         FROM chain_nodes n JOIN transactions t ON t.id = n.transaction_id
        WHERE n.chain_id = $1 AND n.status = 'completed' ORDER BY n.started_at, n.execution_id`,
      [chainId],
    );
    return rows.map((r) => ({
      ...nodeOf(r),
      platformFee: BigInt(r.platformFee as string),
      agentFee: BigInt(r.agentFee as string),
      platformCut: BigInt(r.platformCut as string),
      agentEarnings: BigInt(r.agentEarnings as string),
    }));
  }

  /** Sub-call nodes still running whose execution was never written and that started before `before` (their process died). */
  async staleNodes(before: Date, limit = 100): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `SELECT n.execution_id AS id FROM chain_nodes n
        WHERE n.status = 'running' AND n.depth > 0 AND n.started_at < $1 AND NOT EXISTS (SELECT 1 FROM executions e WHERE e.id = n.execution_id)
        ORDER BY n.started_at LIMIT $2`,
      [before, limit],
    );
    return rows.map((r) => r.id);
  }

  /** Chains the worker should finish: FINISHABLE now, but not yet final (a lost job). */
  async finishable(now: Date, limit = 100): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `SELECT id FROM chains WHERE status = 'running' AND ${FINISHABLE('$2')} ORDER BY started_at LIMIT $1`,
      [limit, now],
    );
    return rows.map((r) => r.id);
  }
}
