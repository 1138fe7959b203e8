export { AnalyticsModule } from './analytics.module';
export { ANALYTICS_PERIODS, GetAgentAnalytics } from './usecases/get-agent-analytics/get-agent-analytics.usecase';
export type { AgentAnalytics, AnalyticsPeriod } from './usecases/get-agent-analytics/get-agent-analytics.usecase';
export { GetPlatformStats } from './usecases/get-platform-stats/get-platform-stats.usecase';
export type { PlatformStats } from './usecases/get-platform-stats/get-platform-stats.usecase';
export { ROLLUP_CHECKS } from './rollup-invariants';
export { LiveExecutionFeed } from './feed/live-execution-feed';
export type { FeedWatcher } from './feed/live-execution-feed';
export type { FeedExecution } from './feed/execution-feed.repository';
