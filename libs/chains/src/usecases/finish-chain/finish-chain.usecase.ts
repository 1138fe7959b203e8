import { Injectable } from '@nestjs/common';
import { Clock, newId } from '@app/common';
import { allWrites, PG_NOT_CLAIMED, pgErrorCode, TransactionRunner } from '@app/database';
import { ChainBudgetPostings, PLATFORM_FEE, RefundsService } from '@app/payments';
import { JobProducer } from '@app/queues';
import { wakeFinisher } from '../../chain-end';
import { ChainNodeRow, ChainsRepository } from '../../chains.repository';

/** A final chain's status from its nodes: the root's outcome first, then whether any node was refunded. */
export function finalStatus(nodes: Pick<ChainNodeRow, 'depth' | 'status'>[]): 'completed' | 'failed' | 'partial' {
  const root = nodes.find((n) => n.depth === 0);
  if (!root || root.status !== 'completed') return 'failed';
  return nodes.some((n) => n.status === 'refunded') ? 'partial' : 'completed';
}

/**
 * Ends a chain whose root has ended, in which nothing runs and for which no token handed to the
 * root's caller is still valid (or past its time limit) (the worker's `chain.finish`; the
 * sweeper re-queues any it finds unfinished): the final status, and what the budget has left
 * moved to the root wallet's refund (chain:budget -> client:refund_payable, a refund row the
 * worker pays: on chain in `evm` mode), less the platform fee when the root ran and failed (to revenue),
 * in one transaction. Idempotent: a second call finds the
 * chain final and does nothing.
 */
@Injectable()
export class FinishChain {
  constructor(
    private readonly repo: ChainsRepository,
    private readonly postings: ChainBudgetPostings,
    private readonly refunds: RefundsService,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
    private readonly jobs: JobProducer,
  ) {}

  /** Answers whether this call finished the chain. */
  async execute(chainId: string): Promise<boolean> {
    let refundId: string | null = null;
    let recheckAt: Date | null = null;
    let done: boolean;
    try {
      done = await this.tx.run(async (m) => {
        // The chain row locked first: no node enters while it is held, so the balance read next is final.
        const chain = await this.repo.lock(m, chainId);
        const now = this.clock.now();
        // Held open for the root's caller (a token handed to it is valid): checked again when the last one expires.
        if (
          chain?.status === 'running' &&
          chain.rootEnded &&
          !chain.holdReleased &&
          chain.heldUntil &&
          chain.heldUntil > now &&
          chain.expiresAt > now
        ) {
          recheckAt = chain.heldUntil < chain.expiresAt ? chain.heldUntil : chain.expiresAt;
          return false;
        }
        if (!chain || chain.status !== 'running' || !chain.rootEnded || chain.running !== 0) return false;
        const [nodes, budget] = await Promise.all([this.repo.nodes(chainId, m), this.postings.left(m, chainId)]);
        const status = finalStatus(nodes);
        // A root that ran and failed keeps the platform fee: a request that fails on purpose is not
        // free to send. A chain that never ran its root (its payment settled too late) refunds all.
        const rootRan = nodes.some((n) => n.depth === 0);
        const fee = status === 'failed' && rootRan ? (budget < PLATFORM_FEE ? budget : PLATFORM_FEE) : 0n;
        const left = budget - fee;
        refundId = left > 0n ? newId('rfd') : null;
        const finished = this.repo.finish(m, chainId, {
          status,
          refundId,
          refunded: left,
          completedAt: now,
        });
        const closed = this.postings.close(m, {
          chainId,
          wallet: chain.rootWallet,
          rootExecutionId: chain.rootExecutionId,
          fee,
          refundId,
          left,
        });
        await allWrites([finished, closed]);
        return true;
      });
    } catch (err) {
      if (pgErrorCode(err) === PG_NOT_CLAIMED) return false;
      throw err;
    }
    if (refundId) await this.refunds.enqueue(refundId);
    if (recheckAt) {
      const at: Date = recheckAt;
      const nowMs = this.clock.nowMs();
      await wakeFinisher(this.jobs, chainId, { finishable: false, closesAt: at }, nowMs, `r${nowMs}`);
    }
    return done;
  }
}
