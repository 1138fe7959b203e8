import { DynamicModule, Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { AppConfig } from '@app/config';
import { DEFAULT_JOB_OPTIONS, QUEUES } from './jobs';
import { JobProducer } from './job.producer';
import { SweepRegistry } from './sweep.registry';
import { redisConnectionOptions } from './redis.options';
import { GetQueueStats } from './usecases/get-queue-stats/get-queue-stats.usecase';

/** BullMQ on the configured Redis; registers every queue and the typed producer. */
@Module({})
export class QueuesModule {
  static forRoot(): DynamicModule {
    return {
      module: QueuesModule,
      global: true,
      imports: [
        BullModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            connection: redisConnectionOptions(config.redisUrl),
            prefix: config.queuePrefix,
            defaultJobOptions: DEFAULT_JOB_OPTIONS,
          }),
        }),
        BullModule.registerQueue(...Object.values(QUEUES).map((name) => ({ name }))),
      ],
      providers: [JobProducer, SweepRegistry, GetQueueStats],
      exports: [JobProducer, SweepRegistry, GetQueueStats, BullModule],
    };
  }
}
