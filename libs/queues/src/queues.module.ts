import { DynamicModule, Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { AppConfig } from '@app/config';
import { DEFAULT_JOB_OPTIONS, QUEUES } from './jobs';
import { JobProducer } from './job.producer';
import { SweepRegistry } from './sweep.registry';
import { queuePrefixOf, RedisClient, redisConnectionOptions } from './redis.options';
import { QUEUE_CONNECTION } from './redis.module';
import { GetQueueStats } from './usecases/get-queue-stats/get-queue-stats.usecase';

/**
 * BullMQ on the configured Redis; registers every queue and the typed producer. On a Redis Cluster
 * the queues and workers share one cluster client (workers add their blocking duplicates), and each
 * queue has a hash-tagged prefix of its own (queuePrefixOf).
 */
@Module({})
export class QueuesModule {
  static forRoot(): DynamicModule {
    return {
      module: QueuesModule,
      global: true,
      imports: [
        BullModule.forRootAsync({
          inject: [AppConfig, QUEUE_CONNECTION],
          useFactory: (config: AppConfig, cluster: RedisClient | null) => ({
            connection: cluster ?? redisConnectionOptions(config.redisUrl),
            prefix: config.queuePrefix,
            defaultJobOptions: DEFAULT_JOB_OPTIONS,
          }),
        }),
        BullModule.registerQueueAsync(
          ...Object.values(QUEUES).map((name) => ({
            name,
            inject: [AppConfig],
            useFactory: (config: AppConfig) => ({ prefix: queuePrefixOf(config, name) }),
          })),
        ),
      ],
      providers: [JobProducer, SweepRegistry, GetQueueStats],
      exports: [JobProducer, SweepRegistry, GetQueueStats, BullModule],
    };
  }
}
