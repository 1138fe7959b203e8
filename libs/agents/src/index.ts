export { AgentEntity } from './entities/agent.entity';
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
export { RegisterAgent } from './usecases/register-agent/register-agent.usecase';
export { GetAgent } from './usecases/get-agent/get-agent.usecase';
export { GetAgentHealth } from './usecases/get-agent-health/get-agent-health.usecase';
export { GetAgentWallet } from './usecases/get-agent-wallet/get-agent-wallet.usecase';
export { UpdateAgent } from './usecases/update-agent/update-agent.usecase';
export { DeactivateAgent } from './usecases/deactivate-agent/deactivate-agent.usecase';
export { SuspendAgent } from './usecases/suspend-agent/suspend-agent.usecase';
export { ReinstateAgent } from './usecases/reinstate-agent/reinstate-agent.usecase';
export { ListSuspendedAgents } from './usecases/list-suspended-agents/list-suspended-agents.usecase';
export type { SuspendedAgentRow } from './agents.repository';
export { DiscoverAgents } from './usecases/discover-agents/discover-agents.usecase';
export type { DiscoveredAgent } from './usecases/discover-agents/discover-agents.usecase';
export { RecommendAgents } from './recommend-agents';
export type { Recommendation } from './recommend-agents';
export { AgentsModule } from './agents.module';
export { ExecuteTargetReader, ExecuteTargetReaderModule } from './execute-target.reader';
export type { ExecutableAgent, ExecutableCapability, ExecuteTarget } from './execute-target.reader';
export { AgentCatalogModule } from './agent-catalog.module';
export { CapabilityCatalogReader } from './capability-catalog.reader';
export type { CatalogEntry } from './capability-catalog.reader';
export { AgentHealthModule } from './health/agent-health.module';
export { ProbeAgents } from './usecases/probe-agents/probe-agents.usecase';
export { PruneHealthHistory } from './usecases/prune-health-history/prune-health-history.usecase';
export { ConsoleSignIn } from './usecases/console-sign-in/console-sign-in.usecase';
// Tests only: no production code imports these (a test reaches a lib through its barrel).
export { DEFAULT_CHAIN_SETTINGS } from './entities/agent.entity';
export { AgentsRepository } from './agents.repository';
export { RECOMMEND_CANDIDATES } from './recommend-agents';
export { AgentHealthRepository } from './health/agent-health.repository';
