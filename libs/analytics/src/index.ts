export { AnalyticsModule } from './analytics.module';
export { ANALYTICS_PERIODS, GetAgentAnalytics } from './usecases/get-agent-analytics/get-agent-analytics.usecase';
export type { AgentAnalytics, AnalyticsPeriod } from './usecases/get-agent-analytics/get-agent-analytics.usecase';
export { GetPlatformStats } from './usecases/get-platform-stats/get-platform-stats.usecase';
export type { PlatformStats } from './usecases/get-platform-stats/get-platform-stats.usecase';
export { ROLLUP_CHECKS } from './rollup-invariants';
export { LiveExecutionFeed } from './feed/live-execution-feed';
export type { FeedExecution } from './feed/execution-feed.repository';
export { GetPlatformSeries } from './usecases/get-platform-series/get-platform-series.usecase';
export { GetAgentSeries } from './usecases/get-agent-series/get-agent-series.usecase';
export { RollUpSeries } from './usecases/roll-up-series/roll-up-series.usecase';
export { SERIES_BUCKETS } from './series/series-range';
export type { SeriesBucket } from './series/series-range';
export {
  GetExecutionTimeline,
  TIMELINE_EVENTS,
} from './usecases/get-execution-timeline/get-execution-timeline.usecase';
export { ListPayerExecutions } from './usecases/list-payer-executions/list-payer-executions.usecase';
export { ListAgentExecutions } from './usecases/list-agent-executions/list-agent-executions.usecase';
// Tests only: no production code imports these (a test reaches a lib through its barrel).
export { LATENCY_BOUNDS, latencyBucket } from './series/latency-histogram';
