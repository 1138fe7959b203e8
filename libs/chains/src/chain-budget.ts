import { Injectable } from '@nestjs/common';
import { AppException, formatMicros } from '@app/common';
import { allWrites, PG_NOT_CLAIMED, pgDetail, pgErrorCode, Queryable } from '@app/database';
import { ChainBudgetPostings } from '@app/payments';
import { ChainNodeRow, ChainsRepository } from './chains.repository';
import type { ChainEnd } from './chain-rows';

/** Why a node could not enter its chain (read after the guarded update refused it). */
export class ChainClosed extends Error {}

export type { ChainEnd } from './chain-rows';

export type NewNode = Omit<ChainNodeRow, 'cost' | 'status' | 'transactionId' | 'executionTimeMs' | 'completedAt'>;

/** SQLSTATE of a reservation the chain's available budget cannot cover (chain_budget_short; DETAIL: what is available). */
const PG_BUDGET_SHORT = 'AG002';

/**
 * The chain budget (reliability.md §1.2), each step inside the caller's transaction. Money moves
 * in the ledger only when it moves, always through payments (chains does not post): funded
 * (ChainBudgetPostings.fund: world:chain -> chain:budget, the payment's whole value), charged (a completed node's charge, chain:budget -> revenue and the callee's escrow:
 * RecordCharge with the chain as source), and what the final chain has left
 * (FinishChain). A node's reservation of its most cost is an earmark on the chain's row: one
 * guarded update takes it from `available` and counts the node running, so parallel reservations
 * cannot overspend (BUDGET_EXCEEDED); the node's end gives back what it did not spend.
 */
@Injectable()
export class ChainBudget {
  constructor(
    private readonly repo: ChainsRepository,
    private readonly postings: ChainBudgetPostings,
  ) {}

  /** The chain's payment arrived: its whole value (root cost + budget) funds the chain, which runs. */
  fund(sql: Queryable, chainId: string, amount: bigint, paymentId: string): Promise<unknown> {
    return allWrites([this.repo.start(sql, chainId, amount), this.postings.fund(sql, chainId, amount, paymentId)]);
  }

  /** A chain whose payment settled after its request ended (nothing ran): funded and ended at once, so all of it is refunded. */
  fundUnrun(sql: Queryable, chainId: string, amount: bigint, paymentId: string): Promise<unknown> {
    return allWrites([this.fund(sql, chainId, amount, paymentId), this.repo.endWithoutRoot(sql, chainId)]);
  }

  /**
   * A node enters the chain and reserves its most cost. Throws BUDGET_EXCEEDED (details:
   * estimated, remaining, shortfall) when the budget cannot cover it, ChainClosed when the chain
   * no longer takes nodes (ended, timed out, or the caller's node ended); the transaction is then
   * aborted. Answers what the budget has available after the reservation.
   */
  async reserve(sql: Queryable, node: NewNode, now: Date, heldByClient = false): Promise<bigint> {
    try {
      const [available] = await allWrites([
        this.repo.enter(sql, node.chainId, node.parentExecutionId, now, node.reserved, heldByClient),
        this.repo.insertNode(sql, node, heldByClient),
      ]);
      return available;
    } catch (err) {
      if (pgErrorCode(err) === PG_NOT_CLAIMED) throw new ChainClosed();
      if (pgErrorCode(err) === PG_BUDGET_SHORT) {
        const remaining = BigInt(pgDetail(err) ?? '0');
        throw new AppException('BUDGET_EXCEEDED', 'The chain budget cannot cover this execution', {
          estimated: formatMicros(node.reserved),
          remaining: formatMicros(remaining),
          shortfall: formatMicros(node.reserved - remaining),
        });
      }
      throw err;
    }
  }

  /** A node that failed: its reservation returns to what is available and the node is `refunded`. Answers whether and when the chain can be finished. */
  release(
    sql: Queryable,
    node: Pick<ChainNodeRow, 'executionId'>,
    end: { executionTimeMs: number; completedAt: Date },
  ): Promise<ChainEnd> {
    return this.repo.end(sql, node.executionId, { status: 'refunded', cost: null, transactionId: null, ...end });
  }

  /**
   * In a completed node's charge transaction (its cost moved out of chain:budget by the charge): the
   * node's end, the unspent part available again, and `holdUntil` (the expiry of a token this answer
   * hands the root's caller) recorded. Answers whether and when the chain can be finished.
   */
  complete(
    sql: Queryable,
    executionId: string,
    end: { cost: bigint; transactionId: string; executionTimeMs: number; completedAt: Date; holdUntil?: Date | null },
  ): Promise<ChainEnd> {
    return this.repo.end(sql, executionId, { status: 'completed', ...end });
  }
}
