import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional } from 'class-validator';
import { SERIES_BUCKETS, SeriesBucket } from '@app/analytics';

export class SeriesQueryDto {
  @ApiPropertyOptional({ enum: SERIES_BUCKETS, default: 'hour', description: 'UTC hours or UTC days' })
  @IsOptional()
  @IsIn(SERIES_BUCKETS)
  bucket: SeriesBucket = 'hour';

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Rounded down to its bucket. Default: 24 hours (hour) or 30 days (day) before `to`',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description:
      'Rounded up to its bucket, excluded. Default: now (the current bucket included). At most 744 hours, or 366 days (an agent: 93 days), after `from`',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;
}

/** The query's times as the use cases take them. */
export function seriesQuery(q: SeriesQueryDto): { bucket: SeriesBucket; from?: Date; to?: Date } {
  return { bucket: q.bucket, from: q.from ? new Date(q.from) : undefined, to: q.to ? new Date(q.to) : undefined };
}

class SeriesEnvelope {
  @ApiProperty({ enum: SERIES_BUCKETS }) bucket: string;
  @ApiProperty({ format: 'date-time', description: 'The first bucket' }) from: string;
  @ApiProperty({ format: 'date-time', description: 'The end of the last bucket (excluded)' }) to: string;
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description:
      'Every execution and charge before this time is counted (the worker rolls them up every few seconds); null before the first roll-up',
  })
  completeTo: string | null;
}

class PlatformSeriesPointDto {
  @ApiProperty({ format: 'date-time', description: 'The bucket start (UTC)' }) at: string;
  @ApiProperty({ description: 'Executions that ended in the bucket (completed, failed or timed out)' })
  executions: number;
  @ApiProperty({ description: 'Of those, the completed ones' }) succeeded: number;
  @ApiProperty({ example: '0.110000', description: 'USDC charged in the bucket (platform fee + agent fee)' })
  volume: string;
  @ApiProperty({ description: 'Distinct paying wallets of the executions that ended in the bucket' }) buyers: number;
  @ApiProperty({ description: 'Distinct agents of the executions that ended in the bucket' }) sellers: number;
}

export class PlatformSeriesResponse extends SeriesEnvelope {
  @ApiProperty({
    type: [PlatformSeriesPointDto],
    description: 'One per bucket, oldest first, zeros where nothing happened',
  })
  points: PlatformSeriesPointDto[];
}

class LatencyPercentiles {
  @ApiProperty({ description: 'ms' }) p50: number;
  @ApiProperty() p95: number;
  @ApiProperty() p99: number;
}

class AgentSeriesPointDto {
  @ApiProperty({ format: 'date-time', description: 'The bucket start (UTC)' }) at: string;
  @ApiProperty({ description: "The agent's executions that ended in the bucket" }) executions: number;
  @ApiProperty() succeeded: number;
  @ApiProperty({ nullable: true, type: Number, description: 'Percentage, two decimals; null when none ended' })
  successRate: number | null;
  @ApiProperty({
    type: LatencyPercentiles,
    nullable: true,
    description:
      'Over successful runs: each percentile as the upper bound of its histogram bucket (1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70 ms ... 1,000 s); null without a success',
  })
  latencyMs: LatencyPercentiles | null;
  @ApiProperty({ example: '0.110000', description: "USDC charged for the agent's executions in the bucket" })
  volume: string;
  @ApiProperty({ example: '0.099500', description: "The agent's share of it (agent fee minus the platform's cut)" })
  earnings: string;
}

export class AgentSeriesResponse extends SeriesEnvelope {
  @ApiProperty({ format: 'uuid' }) agentId: string;
  @ApiProperty({ type: [AgentSeriesPointDto], description: 'One per bucket, oldest first' })
  points: AgentSeriesPointDto[];
}
