import { jobId, JobProducer } from '@app/queues';
import type { ChainEnd } from './chain-rows';

/**
 * After a node's end committed: the worker woken to finish the chain, now when it can be finished,
 * else (only a token held by the root's caller keeps it open) when that token expires: a delayed
 * job of its own per expiry (ends with the same expiry share it). FinishChain, finding the chain
 * still held (a later call moved the hold, or its clock runs behind), schedules the check again
 * under a key of its own (`recheck`). The sweeper covers a lost job.
 */
export async function wakeFinisher(
  jobs: JobProducer,
  chainId: string,
  end: Pick<ChainEnd, 'finishable' | 'closesAt'>,
  nowMs: number,
  recheck?: string,
): Promise<void> {
  if (end.finishable) await jobs.wake('chain.finish', { chainId }, { jobId: jobId('chain.finish', chainId) });
  else if (end.closesAt) {
    const at = end.closesAt.getTime();
    const id = recheck ? jobId('chain.finish', chainId, at, recheck) : jobId('chain.finish', chainId, at);
    await jobs.wake('chain.finish', { chainId }, { jobId: id, delay: Math.max(0, at - nowMs) });
  }
}
