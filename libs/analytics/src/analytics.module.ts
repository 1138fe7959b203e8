import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AnalyticsRepository } from './analytics.repository';
import { AgentLatencyEntity, AgentStatsEntity, PlatformStatsEntity } from './entities/agent-stats.entity';
import { GetAgentAnalytics } from './usecases/get-agent-analytics/get-agent-analytics.usecase';
import { GetPlatformStats } from './usecases/get-platform-stats/get-platform-stats.usecase';
import { ExecutionFeedRepository } from './feed/execution-feed.repository';
import { LiveExecutionFeed } from './feed/live-execution-feed';

@Module({
  imports: [TypeOrmModule.forFeature([AgentStatsEntity, AgentLatencyEntity, PlatformStatsEntity])],
  providers: [AnalyticsRepository, GetAgentAnalytics, GetPlatformStats, ExecutionFeedRepository, LiveExecutionFeed],
  exports: [GetAgentAnalytics, GetPlatformStats, LiveExecutionFeed],
})
export class AnalyticsModule {}
