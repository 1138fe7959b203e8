import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { LeaderboardEntry, ReputationView } from '@app/reputation';

export const DEFAULT_LEADERBOARD_LIMIT = 10;
export const MAX_LEADERBOARD_LIMIT = 100;

export class LeaderboardQueryDto {
  @ApiPropertyOptional({ default: DEFAULT_LEADERBOARD_LIMIT, minimum: 1, maximum: MAX_LEADERBOARD_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_LEADERBOARD_LIMIT)
  limit: number = DEFAULT_LEADERBOARD_LIMIT;
}

const TIERS = ['Excellent', 'Trusted', 'Standard', 'At Risk', 'Critical'];

export class ReputationEventResponse {
  @ApiProperty({
    example: 'execution.completed',
    description:
      'execution.completed, execution.failed, dispute.filed, dispute.agent_wins, dispute.client_wins, dispute.split',
  })
  type: string;
  @ApiProperty({ description: 'The change applied (after the 0-100 clamp)' }) delta: number;
  @ApiProperty({ description: 'The score after this change' }) score: number;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      "What caused it: a transaction (tx_) or a dispute (dsp_); null for a failed run (its request id is its payer's)",
  })
  refId: string | null;
  @ApiProperty() createdAt: string;
}

export class ReputationBreakdownResponse {
  @ApiProperty() successfulExecutions: number;
  @ApiProperty() failedExecutions: number;
  @ApiProperty() disputesWon: number;
  @ApiProperty() disputesLost: number;
}

export class ReputationResponse {
  @ApiProperty({ format: 'uuid' }) agentId: string;
  @ApiProperty({ minimum: 0, maximum: 100 }) score: number;
  @ApiProperty({ enum: TIERS }) tier: string;
  @ApiProperty({ enum: ['active', 'inactive', 'suspended'] }) status: string;
  @ApiProperty({ type: [ReputationEventResponse], description: 'Newest first (at most 20)' })
  recentEvents: ReputationEventResponse[];
  @ApiProperty({ type: ReputationBreakdownResponse }) breakdown: ReputationBreakdownResponse;
}

export class LeaderboardEntryResponse {
  @ApiProperty() rank: number;
  @ApiProperty({ format: 'uuid' }) agentId: string;
  @ApiProperty() name: string;
  @ApiProperty() score: number;
  @ApiProperty({ enum: TIERS }) tier: string;
  @ApiProperty() totalExecutions: number;
}

export class LeaderboardResponse {
  @ApiProperty({ type: [LeaderboardEntryResponse] }) leaderboard: LeaderboardEntryResponse[];
}

export function toReputationResponse(v: ReputationView): ReputationResponse {
  return {
    agentId: v.agentId,
    score: v.score,
    tier: v.tier,
    status: v.status,
    recentEvents: v.recentEvents.map((e) => ({
      type: e.type,
      delta: e.delta,
      score: e.score,
      refId: e.refId,
      createdAt: new Date(e.createdAt).toISOString(),
    })),
    breakdown: v.breakdown,
  };
}

export function toLeaderboardResponse(entries: LeaderboardEntry[]): LeaderboardResponse {
  return { leaderboard: entries.map((e) => ({ ...e })) };
}
