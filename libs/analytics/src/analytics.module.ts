import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AnalyticsRepository } from './analytics.repository';
import { AgentLatencyEntity, AgentStatsEntity, PlatformStatsEntity } from './entities/agent-stats.entity';
import { GetAgentAnalytics } from './usecases/get-agent-analytics/get-agent-analytics.usecase';
import { GetPlatformStats } from './usecases/get-platform-stats/get-platform-stats.usecase';

@Module({
  imports: [TypeOrmModule.forFeature([AgentStatsEntity, AgentLatencyEntity, PlatformStatsEntity])],
  providers: [AnalyticsRepository, GetAgentAnalytics, GetPlatformStats],
  exports: [GetAgentAnalytics, GetPlatformStats],
})
export class AnalyticsModule {}
