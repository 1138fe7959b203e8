import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsNumber, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { DiscoveredAgent, Recommendation } from '@app/agents';
import { IsUsdcAmount } from '../../http/validators';
import { PageQueryDto } from '../../http/pagination.dto';
import {
  AgentHealthResponse,
  PricingResponse,
  toCapabilityResponse,
  toPricingResponse,
  UNKNOWN_HEALTH_RESPONSE,
} from '../../agents/dto/agent-response.dto';

/** Filters plus `limit` (default 20, at most 100) and `offset`. */
export class DiscoverQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Case-insensitive substring of a capability name' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  capability?: string;

  @ApiPropertyOptional({ example: '0.050000', description: 'Maximum base price per request' })
  @IsOptional()
  @IsUsdcAmount()
  maxPrice?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(100)
  minReputation?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'Minimum share of health probes answered over 24 h' })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  minUptime?: number;
}

export const DEFAULT_RECOMMEND_LIMIT = 5;
export const MAX_RECOMMEND_LIMIT = 50;

export class RecommendQueryDto {
  @ApiProperty({ example: 'translate this to French' })
  @IsString()
  @Length(1, 500)
  query: string;

  @ApiPropertyOptional({ default: DEFAULT_RECOMMEND_LIMIT, minimum: 1, maximum: MAX_RECOMMEND_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_RECOMMEND_LIMIT)
  limit: number = DEFAULT_RECOMMEND_LIMIT;
}

export class DiscoveredCapabilityResponse {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: PricingResponse }) pricing: PricingResponse;
}

export class DiscoveredAgentResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ type: [DiscoveredCapabilityResponse] }) capabilities: DiscoveredCapabilityResponse[];
  @ApiProperty() reputation_score: number;
  @ApiProperty() status: string;
  @ApiProperty({ type: AgentHealthResponse }) health: AgentHealthResponse;
}

export class DiscoverResponse {
  @ApiProperty({ type: [DiscoveredAgentResponse] }) agents: DiscoveredAgentResponse[];
  @ApiProperty({ description: 'Matching agents: exact up to 1000; 1000 with totalExact false means at least 1000' })
  total: number;
  @ApiProperty({ description: 'false when the total saturated at 1000 (there are at least that many)' })
  totalExact: boolean;
  @ApiProperty() limit: number;
  @ApiProperty() offset: number;
}

export class RecommendedAgentResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: [DiscoveredCapabilityResponse] }) capabilities: DiscoveredCapabilityResponse[];
}

export class RecommendationResponse {
  @ApiProperty({ type: RecommendedAgentResponse }) agent: RecommendedAgentResponse;
  @ApiProperty({ minimum: 0, maximum: 1 }) relevance: number;
  @ApiProperty({ type: [String], description: 'IDs of the capabilities that match the query' })
  matchedCapabilities: string[];
}

export class RecommendResponse {
  @ApiProperty({ type: [RecommendationResponse] }) recommendations: RecommendationResponse[];
  @ApiProperty() query: string;
}

export function toDiscoveredAgentResponse(d: DiscoveredAgent): DiscoveredAgentResponse {
  return {
    id: d.agent.id,
    name: d.agent.name,
    description: d.agent.description,
    capabilities: d.capabilities.map((c) => ({ id: c.capabilityId, name: c.name, pricing: toPricingResponse(c) })),
    reputation_score: d.agent.reputationScore,
    status: d.agent.status,
    health: d.agent.health ?? UNKNOWN_HEALTH_RESPONSE,
  };
}

export function toRecommendationResponse(r: Recommendation): RecommendationResponse {
  return {
    agent: {
      id: r.agent.id,
      name: r.agent.name,
      capabilities: r.agent.capabilities.map((c) => {
        const { id, name, pricing } = toCapabilityResponse(c);
        return { id, name, pricing };
      }),
    },
    relevance: r.relevance,
    matchedCapabilities: r.matchedCapabilities,
  };
}
