import { jobId, JobProducer } from '@app/queues';
import type { ChainEnd } from './chain-budget';

/**
 * After a node's end committed: the worker woken to finish the chain, now when it can be finished;
 * else, when `holdStarts` (the root's end, which first holds the chain open for its caller) and only
 * that token keeps it open, when the token expires: a delayed job of its own per expiry. A later
 * call moves the hold without a job of its own: FinishChain, finding the chain still held, schedules
 * the check again at the new expiry. The sweeper covers a lost job.
 */
export async function wakeFinisher(
  jobs: JobProducer,
  chainId: string,
  end: ChainEnd,
  nowMs: number,
  holdStarts = true,
): Promise<void> {
  if (end.finishable) await jobs.wake('chain.finish', { chainId }, { jobId: jobId('chain.finish', chainId) });
  else if (end.closesAt && holdStarts) {
    const at = end.closesAt.getTime();
    await jobs.wake(
      'chain.finish',
      { chainId },
      { jobId: jobId('chain.finish', chainId, at), delay: Math.max(0, at - nowMs) },
    );
  }
}
