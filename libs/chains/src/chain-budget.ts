import { Injectable } from '@nestjs/common';
import { AppException, formatMicros } from '@app/common';
import { allWrites, PG_NOT_CLAIMED, pgErrorCode, Queryable } from '@app/database';
import { Accounts, LedgerBoundsError, LedgerService, transfer } from '@app/ledger';
import { ChainNodeRow, ChainsRepository } from './chains.repository';

/** Why a node could not enter its chain (read after the guarded update refused it). */
export class ChainClosed extends Error {}

export type NewNode = Omit<ChainNodeRow, 'cost' | 'status' | 'transactionId' | 'executionTimeMs' | 'completedAt'>;

/**
 * The chain budget's money (reliability.md §1.2), each movement inside the caller's transaction:
 * funded (world:chain -> chain:budget, the payment's whole value), a node's reservation of its
 * most cost (chain:budget -> chain:inflight; the account's bound makes parallel reservations
 * unable to overspend: BUDGET_EXCEEDED), a refunded node (chain:inflight -> chain:budget). A
 * completed node's charge moves its reservation out of chain:inflight (EscrowService.recordCharge
 * with the chain as source), and what the final chain has left is refunded by FinishChain.
 */
@Injectable()
export class ChainBudget {
  constructor(
    private readonly repo: ChainsRepository,
    private readonly ledger: LedgerService,
  ) {}

  /** The chain's payment arrived: its whole value (root cost + budget) funds the chain, which runs. */
  fund(sql: Queryable, chainId: string, amount: bigint, paymentId: string): Promise<unknown> {
    return allWrites([
      this.repo.start(sql, chainId),
      this.ledger.post(sql, { code: 'chain.funded', refId: chainId, legs: transfer(Accounts.worldChain(), Accounts.chainBudget(chainId), amount), metadata: { paymentId } }),
    ]);
  }

  /** A chain whose payment settled after its request ended (nothing ran): funded and ended at once, so all of it is refunded. */
  fundUnrun(sql: Queryable, chainId: string, amount: bigint, paymentId: string): Promise<unknown> {
    return allWrites([this.fund(sql, chainId, amount, paymentId), this.repo.endWithoutRoot(sql, chainId)]);
  }

  /**
   * A node enters the chain and reserves its most cost. Throws BUDGET_EXCEEDED (details:
   * estimated, remaining, shortfall) when the budget cannot cover it, ChainClosed when the chain
   * no longer takes nodes (ended, timed out, or the caller's node ended); the transaction is then
   * aborted. Answers what the budget has left after the reservation.
   */
  async reserve(sql: Queryable, node: NewNode, now: Date): Promise<bigint> {
    try {
      const [, posted] = await allWrites([
        this.repo.enter(sql, node.chainId, node.parentExecutionId, now),
        this.ledger.post(sql, {
          code: 'chain.node.reserved',
          refId: node.executionId,
          legs: transfer(Accounts.chainBudget(node.chainId), Accounts.chainInflight(node.chainId), node.reserved),
        }),
        this.repo.insertNode(sql, node),
      ]);
      return posted.balances.get(Accounts.chainBudget(node.chainId).code)!;
    } catch (err) {
      if (pgErrorCode(err) === PG_NOT_CLAIMED) throw new ChainClosed();
      if (err instanceof LedgerBoundsError && err.account.kind === 'chain_budget') {
        throw new AppException('BUDGET_EXCEEDED', 'The chain budget cannot cover this execution', {
          estimated: formatMicros(node.reserved),
          remaining: formatMicros(err.balance),
          shortfall: formatMicros(node.reserved - err.balance),
        });
      }
      throw err;
    }
  }

  /** A node that failed: its reservation returns to the budget and the node is `refunded`. Answers whether the chain can be finished. */
  async release(sql: Queryable, node: Pick<ChainNodeRow, 'executionId' | 'chainId' | 'reserved'>, end: { executionTimeMs: number; completedAt: Date }): Promise<boolean> {
    const [ended] = await allWrites([
      this.repo.end(sql, node.executionId, { status: 'refunded', cost: null, transactionId: null, ...end }),
      this.ledger.post(sql, {
        code: 'chain.node.released',
        refId: node.executionId,
        legs: transfer(Accounts.chainInflight(node.chainId), Accounts.chainBudget(node.chainId), node.reserved),
      }),
    ]);
    return ended.finishable;
  }

  /** In a completed node's charge transaction (its money moved by the charge): the node's end. Answers whether the chain can be finished. */
  async complete(sql: Queryable, executionId: string, end: { cost: bigint; transactionId: string; executionTimeMs: number; completedAt: Date }): Promise<boolean> {
    return (await this.repo.end(sql, executionId, { status: 'completed', ...end })).finishable;
  }
}
