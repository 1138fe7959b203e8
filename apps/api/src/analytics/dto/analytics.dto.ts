import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { AgentAnalytics, ANALYTICS_PERIODS, AnalyticsPeriod } from '@app/analytics';

export class AnalyticsQueryDto {
  @ApiPropertyOptional({
    enum: ANALYTICS_PERIODS,
    default: 'week',
    description: 'Rolling: day = the last 24 h, week = 7 days, month = 30 days, all',
  })
  @IsOptional()
  @IsIn(ANALYTICS_PERIODS)
  period: AnalyticsPeriod = 'week';
}

class ExecutionsStats {
  @ApiProperty() total: number;
  @ApiProperty({ description: 'Charged executions' }) successful: number;
  @ApiProperty({
    description:
      "Of the successful executions, those paid by the agent's own wallet: counted here, but they move no reputation",
  })
  selfPaid: number;
  @ApiProperty({ description: 'Failed or timed-out runs that reached the agent' }) failed: number;
  @ApiProperty({ description: 'Percentage, two decimals' }) successRate: number;
}

class EarningsStats {
  @ApiProperty({ example: '1.050000', description: 'What clients paid (platform fee + agent fee)' }) gross: string;
  @ApiProperty({ example: '0.052500', description: 'Platform fee + the 5% cut of the agent fee' }) platformFees: string;
  @ApiProperty({ example: '0.997500', description: "The agent's earnings (gross - platformFees)" }) net: string;
}

class PerformanceStats {
  @ApiProperty({ description: 'ms, rounded' }) avgExecutionTime: number;
  @ApiProperty({ description: 'ms, nearest rank over completed executions' }) p50ExecutionTime: number;
  @ApiProperty() p95ExecutionTime: number;
  @ApiProperty() p99ExecutionTime: number;
}

class DisputeStats {
  @ApiProperty() total: number;
  @ApiProperty() won: number;
  @ApiProperty() lost: number;
  @ApiProperty() pending: number;
  @ApiProperty({ description: 'Disputes per successful execution, percentage' }) rate: number;
}

class ReputationStats {
  @ApiProperty() current: number;
  @ApiProperty({ description: 'Score now minus at the period start (all: minus 50, the score at registration)' })
  change: number;
  @ApiProperty({ enum: ['Excellent', 'Trusted', 'Standard', 'At Risk', 'Critical'] }) tier: string;
}

export class AgentAnalyticsResponse {
  @ApiProperty({ format: 'uuid' }) agentId: string;
  @ApiProperty({ enum: ANALYTICS_PERIODS }) period: string;
  @ApiProperty({ type: ExecutionsStats }) executions: ExecutionsStats;
  @ApiProperty({ type: EarningsStats }) earnings: EarningsStats;
  @ApiProperty({ type: PerformanceStats }) performance: PerformanceStats;
  @ApiProperty({ type: DisputeStats }) disputes: DisputeStats;
  @ApiProperty({ type: ReputationStats }) reputation: ReputationStats;
}

export function toAgentAnalyticsResponse(a: AgentAnalytics): AgentAnalyticsResponse {
  return { ...a };
}
