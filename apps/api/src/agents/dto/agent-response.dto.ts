import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AgentCapabilityEntity, AgentEntity } from '@app/agents';
import { formatMicros } from '@app/common';

export class PricingResponse {
  @ApiProperty() model: string;
  @ApiProperty({ example: '0.010000' }) basePrice: string;
  @ApiProperty() currency: string;
  @ApiPropertyOptional({ example: '0.500000' }) maxPrice?: string;
}

export class CapabilityResponse {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) inputSchema?: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) outputSchema?: Record<string, unknown>;
  @ApiProperty({ type: PricingResponse }) pricing: PricingResponse;
}

export class EndpointsResponse {
  @ApiProperty() execution: string;
  @ApiPropertyOptional() health?: string;
}

export class ChainSettingsResponse {
  @ApiProperty() chain_enabled: boolean;
  @ApiProperty() chain_max_depth: number;
  @ApiProperty({ type: [String] }) chain_allowed_callers: string[];
  @ApiProperty({ type: [String] }) chain_blocked_callers: string[];
}

export class AgentHealthResponse {
  @ApiProperty({ enum: ['up', 'down', 'unknown'] }) status: string;
  @ApiProperty({
    nullable: true,
    type: Number,
    minimum: 0,
    maximum: 1,
    description: 'Share of probes that succeeded over 24 h; null before any',
  })
  uptime24h: number | null;
  @ApiProperty({
    nullable: true,
    type: Number,
    minimum: 0,
    maximum: 1,
    description: 'Share of probes that succeeded over 7 days',
  })
  uptime7d: number | null;
  @ApiProperty({ nullable: true, type: Number }) lastLatencyMs: number | null;
  @ApiProperty({ nullable: true, type: String }) lastError: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) checkedAt: string | null;
}

export const UNKNOWN_HEALTH_RESPONSE: AgentHealthResponse = {
  status: 'unknown',
  uptime24h: null,
  uptime7d: null,
  lastLatencyMs: null,
  lastError: null,
  checkedAt: null,
};

export class HealthHourResponse {
  @ApiProperty({ format: 'date-time', description: 'Start of the hour (UTC)' }) hour: string;
  @ApiProperty({ description: 'Probes in the hour' }) probes: number;
  @ApiProperty({ description: 'Probes the agent answered (up)' }) ups: number;
  @ApiProperty({ nullable: true, type: Number, description: 'Mean latency of the probes answered (ms)' })
  avgLatencyMs: number | null;
}

export class AgentHealthHistoryResponse {
  @ApiProperty({ format: 'uuid' }) agentId: string;
  @ApiProperty({ type: AgentHealthResponse }) health: AgentHealthResponse;
  @ApiProperty({
    type: [HealthHourResponse],
    description: 'The last 7 days by the hour, oldest first (at most 168); hours without probes are absent',
  })
  hours: HealthHourResponse[];
}

export class AgentResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() wallet: string;
  @ApiProperty() name: string;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ type: [CapabilityResponse] }) capabilities: CapabilityResponse[];
  @ApiProperty({ type: EndpointsResponse }) endpoints: EndpointsResponse;
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata: Record<string, unknown>;
  @ApiProperty({ minimum: 0, maximum: 100 }) reputation_score: number;
  @ApiProperty({ enum: ['active', 'inactive', 'suspended'] }) status: string;
  @ApiProperty({ nullable: true, type: String, description: 'Why the platform set the agent inactive (its health)' })
  inactiveReason: string | null;
  @ApiProperty({ type: AgentHealthResponse }) health: AgentHealthResponse;
  @ApiProperty({ type: ChainSettingsResponse }) chainSettings: ChainSettingsResponse;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class DeleteAgentResponse {
  @ApiProperty() message: string;
  @ApiProperty({ format: 'uuid' }) id: string;
}

export function toPricingResponse(c: AgentCapabilityEntity): PricingResponse {
  return {
    model: c.pricingModel,
    basePrice: formatMicros(c.basePrice),
    currency: c.currency,
    ...(c.maxPrice !== null ? { maxPrice: formatMicros(c.maxPrice) } : {}),
  };
}

export function toCapabilityResponse(c: AgentCapabilityEntity): CapabilityResponse {
  return {
    id: c.capabilityId,
    name: c.name,
    description: c.description,
    ...(c.inputSchema ? { inputSchema: c.inputSchema } : {}),
    ...(c.outputSchema ? { outputSchema: c.outputSchema } : {}),
    pricing: toPricingResponse(c),
  };
}

export function toAgentResponse(a: AgentEntity): AgentResponse {
  return {
    id: a.id,
    wallet: a.wallet,
    name: a.name,
    description: a.description,
    capabilities: (a.capabilities ?? []).map(toCapabilityResponse),
    endpoints: a.endpoints,
    metadata: a.metadata,
    reputation_score: a.reputationScore,
    status: a.status,
    inactiveReason: a.inactiveReason ?? null,
    health: a.health ?? UNKNOWN_HEALTH_RESPONSE,
    chainSettings: a.chainSettings,
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
  };
}
