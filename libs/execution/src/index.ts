export * from './entities/execution.entity';
export * from './entities/idempotency-key.entity';
export * from './json-schema';
export * from './rate-limiter';
export * from './agent-caller';
export * from './execute-targets';
export * from './execution.service';
export * from './execution.module';
