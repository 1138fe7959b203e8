export { JOB_NAMES, JOB_QUEUE, jobId, QUEUES } from './jobs';
export type { JobName, JobOf, JobPayloads, QueueName } from './jobs';
export { JobProducer, TRACE_FIELD } from './job.producer';
export { QueuesModule } from './queues.module';
export { GetQueueStats } from './usecases/get-queue-stats/get-queue-stats.usecase';
export type { QueueStats } from './usecases/get-queue-stats/get-queue-stats.usecase';
export {
  admissionKeyPrefix,
  readyWithin,
  queuePrefixOf,
  redisClusterClient,
  redisConnectionOptions,
} from './redis.options';
export type { RedisClient } from './redis.options';
export { QUEUE_CONNECTION, REDIS, RedisModule } from './redis.module';
export { workerHeartbeatKey } from './heartbeat';
export type { WorkerHeartbeat } from './heartbeat';
export { JOB_WAIT_GRACE_MS, recoveredOf, SweepRegistry } from './sweep.registry';
export type { DueWork, SweepOptions, SweepSource } from './sweep.registry';
export { FairShare } from './fair-share';
export type { CapGate, CapPass, Lane } from './fair-share';
export { isRedisUnavailable, pingRedis, slotOwners, watchFailovers } from './redis-health';
