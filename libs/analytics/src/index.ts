export * from './entities/agent-stats.entity';
export * from './analytics.module';
export * from './percentiles';
export * from './usecases/get-agent-analytics/get-agent-analytics.usecase';
export * from './usecases/get-platform-stats/get-platform-stats.usecase';
export * from './rollup-invariants';
