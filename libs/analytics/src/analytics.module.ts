import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AnalyticsRepository } from './analytics.repository';
import { AgentLatencyEntity, AgentStatsEntity, PlatformStatsEntity } from './entities/agent-stats.entity';
import { GetAgentAnalytics } from './usecases/get-agent-analytics/get-agent-analytics.usecase';
import { GetPlatformStats } from './usecases/get-platform-stats/get-platform-stats.usecase';
import { ExecutionFeedRepository } from './feed/execution-feed.repository';
import { LiveExecutionFeed } from './feed/live-execution-feed';
import {
  SeriesAgentHourlyEntity,
  SeriesCursorEntity,
  SeriesPlatformEntity,
  SeriesSeenEntity,
} from './entities/series.entity';
import { SeriesRepository } from './series/series.repository';
import { GetAgentSeries } from './usecases/get-agent-series/get-agent-series.usecase';
import { GetPlatformSeries } from './usecases/get-platform-series/get-platform-series.usecase';
import { RollUpSeries } from './usecases/roll-up-series/roll-up-series.usecase';
import { ExecutionTimelineRepository } from './timeline/execution-timeline.repository';
import { GetExecutionTimeline } from './usecases/get-execution-timeline/get-execution-timeline.usecase';
import { AuthModule } from '@app/auth';
import { ExecutionPagesRepository } from './executions/execution-pages.repository';
import { ListAgentExecutions } from './usecases/list-agent-executions/list-agent-executions.usecase';
import { ListPayerExecutions } from './usecases/list-payer-executions/list-payer-executions.usecase';

@Module({
  imports: [
    AuthModule,
    TypeOrmModule.forFeature([
      AgentStatsEntity,
      AgentLatencyEntity,
      PlatformStatsEntity,
      SeriesCursorEntity,
      SeriesAgentHourlyEntity,
      SeriesPlatformEntity,
      SeriesSeenEntity,
    ]),
  ],
  providers: [
    AnalyticsRepository,
    GetAgentAnalytics,
    GetPlatformStats,
    ExecutionFeedRepository,
    LiveExecutionFeed,
    SeriesRepository,
    GetPlatformSeries,
    GetAgentSeries,
    RollUpSeries,
    ExecutionTimelineRepository,
    GetExecutionTimeline,
    ExecutionPagesRepository,
    ListAgentExecutions,
    ListPayerExecutions,
  ],
  exports: [
    GetAgentAnalytics,
    GetPlatformStats,
    LiveExecutionFeed,
    GetPlatformSeries,
    GetAgentSeries,
    RollUpSeries,
    GetExecutionTimeline,
    ListPayerExecutions,
    ListAgentExecutions,
  ],
})
export class AnalyticsModule {}
