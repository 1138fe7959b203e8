import { AgentEndpoints, AgentStatus, ChainSettings } from './entities/agent.entity';
import { Currency, PricingModel } from './entities/agent-capability.entity';

/** A capability as the domain receives it: prices already parsed to micro-USDC. */
export interface CapabilityInput {
  id: string;
  name: string;
  description: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  pricing: {
    model: PricingModel;
    basePrice: bigint;
    maxPrice?: bigint;
    currency: Currency;
  };
}

export interface RegisterAgentInput {
  wallet: string;
  name: string;
  description?: string;
  capabilities: CapabilityInput[];
  endpoints: AgentEndpoints;
  metadata?: Record<string, unknown>;
}

export interface UpdateAgentInput {
  name?: string;
  description?: string | null;
  capabilities?: CapabilityInput[];
  endpoints?: AgentEndpoints;
  metadata?: Record<string, unknown>;
  status?: Extract<AgentStatus, 'active' | 'inactive'>;
  chainSettings?: Partial<ChainSettings>;
}

export const MAX_CAPABILITIES = 50;
