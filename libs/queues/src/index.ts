export * from './jobs';
export * from './job.producer';
export * from './queues.module';
export * from './redis.options';
export * from './redis.module';
export * from './heartbeat';
export * from './sweep.registry';
export * from './fair-share';
