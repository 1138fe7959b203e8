export { JOB_NAMES, JOB_QUEUE, jobId, QUEUES } from './jobs';
export type { JobName, JobOf, JobPayloads, QueueName } from './jobs';
export { JobProducer, TRACE_FIELD } from './job.producer';
export { QueuesModule } from './queues.module';
export { GetQueueStats } from './usecases/get-queue-stats/get-queue-stats.usecase';
export type { QueueStats } from './usecases/get-queue-stats/get-queue-stats.usecase';
export { admissionKeyPrefix } from './redis.options';
export type { RedisClient } from './redis.options';
export { QUEUE_CONNECTION, REDIS, RedisModule } from './redis.module';
export { workerHeartbeatKey } from './heartbeat';
export type { WorkerHeartbeat } from './heartbeat';
export { JOB_WAIT_GRACE_MS, recoveredOf, SweepRegistry } from './sweep.registry';
export type { SweepSource } from './sweep.registry';
export { FairShare } from './fair-share';
export type { CapGate, CapPass, Lane } from './fair-share';
export { isRedisUnavailable, pingRedis, watchFailovers } from './redis-health';
// Tests only: no production code imports these (a test reaches a lib through its barrel).
export { readyWithin, queuePrefixOf, redisClusterClient, redisConnectionOptions } from './redis.options';
export { slotOwners } from './redis-health';
