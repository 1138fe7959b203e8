import { Module } from '@nestjs/common';
import { AgentCatalogModule } from '@app/agents';
import { X402Module } from '@app/x402';
import { BuildAgentCard } from './usecases/build-agent-card/build-agent-card.usecase';
import { BuildLlmsTxt } from './usecases/build-llms-txt/build-llms-txt.usecase';
import { BuildX402DiscoveryManifest } from './usecases/build-x402-discovery-manifest/build-x402-discovery-manifest.usecase';
import { BuildX402Manifest } from './usecases/build-x402-manifest/build-x402-manifest.usecase';
import { ListX402Resources } from './usecases/list-x402-resources/list-x402-resources.usecase';
import { SearchX402Resources } from './usecases/search-x402-resources/search-x402-resources.usecase';
import { X402Resources } from './x402-resources';

const USE_CASES = [
  ListX402Resources,
  SearchX402Resources,
  BuildX402Manifest,
  BuildX402DiscoveryManifest,
  BuildAgentCard,
  BuildLlmsTxt,
];

/** Every capability as an x402 resource, for the discovery API and the manifests (the api only). */
@Module({
  imports: [AgentCatalogModule, X402Module],
  providers: [...USE_CASES, X402Resources],
  exports: USE_CASES,
})
export class CatalogModule {}
