import { CapabilityInput, RegisterAgentInput, UpdateAgentInput } from '@app/agents';
import { Usdc } from '@app/common';
import { CapabilityDto, RegisterAgentDto, UpdateAgentDto } from './agent-request.dto';

export function toCapabilityInput(c: CapabilityDto): CapabilityInput {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    inputSchema: c.inputSchema,
    outputSchema: c.outputSchema,
    pricing: {
      model: c.pricing.model,
      basePrice: Usdc.parse(c.pricing.basePrice).micros,
      maxPrice: c.pricing.maxPrice === undefined ? undefined : Usdc.parse(c.pricing.maxPrice).micros,
      currency: c.pricing.currency,
    },
  };
}

export function toRegisterInput(dto: RegisterAgentDto): RegisterAgentInput {
  return {
    wallet: dto.wallet,
    name: dto.name,
    description: dto.description,
    capabilities: dto.capabilities.map(toCapabilityInput),
    endpoints: {
      execution: dto.endpoints.execution,
      ...(dto.endpoints.health ? { health: dto.endpoints.health } : {}),
    },
    metadata: dto.metadata,
  };
}

export function toUpdateInput(dto: UpdateAgentDto): UpdateAgentInput {
  return {
    name: dto.name,
    description: dto.description,
    capabilities: dto.capabilities?.map(toCapabilityInput),
    endpoints: dto.endpoints && {
      execution: dto.endpoints.execution,
      ...(dto.endpoints.health ? { health: dto.endpoints.health } : {}),
    },
    metadata: dto.metadata,
    status: dto.status,
    chainSettings:
      dto.chainSettings && Object.fromEntries(Object.entries(dto.chainSettings).filter(([, v]) => v !== undefined)),
  };
}
