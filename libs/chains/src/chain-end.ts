import { jobId, JobProducer } from '@app/queues';
import type { ChainEnd } from './chain-rows';

/** Checks of held chains are due on whole seconds: the ends of one second share one delayed job. */
const SLOT_MS = 1_000;

/**
 * After a node's end committed: the worker woken to finish the chain, now when it can be finished,
 * else (only a token held by the root's caller keeps it open) when that token expires, rounded up to
 * the next whole second: the ends whose tokens expire within the same second share one delayed job
 * (a session making calls all the time leaves about one job per second, not one per call). The job
 * is due after that token's expiry, never before. FinishChain, finding the chain still held (a later
 * call moved the hold, or its clock runs behind), schedules the check again under a key of its own
 * (`recheck`). The sweeper covers a lost job.
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
    const at = Math.ceil(end.closesAt.getTime() / SLOT_MS) * SLOT_MS;
    const id = recheck ? jobId('chain.finish', chainId, at, recheck) : jobId('chain.finish', chainId, at);
    await jobs.wake('chain.finish', { chainId }, { jobId: id, delay: Math.max(0, at - nowMs) });
  }
}
