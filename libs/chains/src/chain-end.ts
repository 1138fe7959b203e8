import { jobId, JobProducer } from '@app/queues';
import type { ChainEnd } from './chain-budget';

/**
 * After a node's end committed: the worker woken to finish the chain, now when it can be finished,
 * else (only a token held by the root's caller keeps it open) when that token expires: a delayed
 * job of its own per expiry, since a later call may move it (FinishChain then finds it open and
 * does nothing; that call's end schedules the later one). The sweeper covers a lost job.
 */
export async function wakeFinisher(jobs: JobProducer, chainId: string, end: ChainEnd, nowMs: number): Promise<void> {
  if (end.finishable) await jobs.wake('chain.finish', { chainId }, { jobId: jobId('chain.finish', chainId) });
  else if (end.closesAt) {
    const at = end.closesAt.getTime();
    await jobs.wake(
      'chain.finish',
      { chainId },
      { jobId: jobId('chain.finish', chainId, at), delay: Math.max(0, at - nowMs) },
    );
  }
}
