import { Module } from '@nestjs/common';
import { AgentsRepository } from './agents.repository';
import { CapabilityCatalogReader } from './capability-catalog.reader';
import { RecommendAgents } from './recommend-agents';

/**
 * The agents table as catalogues read it (no registration, no signatures): recommendations and the
 * capability catalogue, for the x402 discovery API and manifests as for `GET /discover/recommend`.
 */
@Module({
  providers: [AgentsRepository, RecommendAgents, CapabilityCatalogReader],
  exports: [RecommendAgents, CapabilityCatalogReader],
})
export class AgentCatalogModule {}
