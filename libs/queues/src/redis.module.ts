import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { readyWithin, RedisClient, redisClusterClient, redisCommandsClient } from './redis.options';

export const REDIS = Symbol('REDIS');
/** On a Redis Cluster, the one cluster client BullMQ's queues and workers share (null on one node). */
export const QUEUE_CONNECTION = Symbol('QUEUE_CONNECTION');

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
        const client = redisCommandsClient(config);
        // A cluster client without an offline queue fails commands until it has the slot map: wait for it a little.
        if (config.redisClusterNodes) await readyWithin(client, 5_000);
        return client;
      },
    },
    {
      provide: QUEUE_CONNECTION,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        config.redisClusterNodes ? redisClusterClient(config.redisClusterNodes, 'queues') : null,
    },
    RedisCloser,
  ],
  exports: [REDIS, QUEUE_CONNECTION],
})
export class RedisModule {}
