import { Global, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { readyWithin, RedisClient, redisClusterClient, redisCommandsClient } from './redis.options';

export const REDIS = Symbol('REDIS');
/** On a Redis Cluster, the one cluster client BullMQ's queues and workers share (null on one node). */
export const QUEUE_CONNECTION = Symbol('QUEUE_CONNECTION');

const logger = new Logger('Redis');
const ERROR_LOG_EVERY_MS = 10_000;

/** Logs the client's connection errors (at most one line per 10 s), instead of ioredis's "Unhandled error event". */
function withErrorLog<T extends RedisClient>(client: T, role: string): T {
  let last = 0;
  client.on('error', (err: Error) => {
    const now = performance.now();
    if (now - last < ERROR_LOG_EVERY_MS && last !== 0) return;
    last = now;
    logger.warn({ client: role, err: err.message }, 'Redis connection error; retrying');
  });
  return client;
}

@Injectable()
class RedisCloser implements OnApplicationShutdown {
  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(QUEUE_CONNECTION) private readonly queues: RedisClient | null,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    for (const client of [this.redis, this.queues]) await client?.quit().catch(() => client.disconnect());
  }
}

/** The shared ioredis client for non-queue uses (health, heartbeats, rate limits, claims, fair shares). */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [AppConfig],
      useFactory: async (config: AppConfig) => {
        const client = withErrorLog(redisCommandsClient(config), 'commands');
        // A cluster client without an offline queue fails commands until it has the slot map: wait for it a little.
        if (config.redisClusterNodes) await readyWithin(client, 5_000);
        return client;
      },
    },
    {
      provide: QUEUE_CONNECTION,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        config.redisClusterNodes
          ? withErrorLog(redisClusterClient(config.redisClusterNodes, 'queues'), 'queues')
          : null,
    },
    RedisCloser,
  ],
  exports: [REDIS, QUEUE_CONNECTION],
})
export class RedisModule {}
