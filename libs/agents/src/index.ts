export { AgentEntity, DEFAULT_CHAIN_SETTINGS } from './entities/agent.entity';
export {
  AgentCapabilityEntity,
  CURRENCIES,
  PRICING_MODELS,
  VARIABLE_PRICING_MODELS,
} from './entities/agent-capability.entity';
export type { Currency, PricingModel } from './entities/agent-capability.entity';
export { MAX_CAPABILITIES } from './agent.types';
export type { CapabilityInput, RegisterAgentInput, UpdateAgentInput } from './agent.types';
export { RegistrationFeeStep } from './registration-fee.step';
export type { RegistrationFeeCharge, RegistrationFeeContext } from './registration-fee.step';
export { AgentsRepository } from './agents.repository';
export { AgentsService } from './agents.service';
export type { RegisteredAgent } from './agents.service';
export { DiscoveryService } from './discovery.service';
export type { DiscoveredAgent, DiscoverFilters } from './discovery.service';
export { RecommendAgents } from './recommend-agents';
export type { Recommendation } from './recommend-agents';
export { AgentsModule } from './agents.module';
export { ExecuteTargetReader, ExecuteTargetReaderModule } from './execute-target.reader';
export type { ExecutableAgent, ExecutableCapability, ExecuteTarget } from './execute-target.reader';
