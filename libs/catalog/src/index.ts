/** The x402 catalogue: every capability as an x402 resource (the discovery API, the manifests), its price and its routes. */
export { CatalogModule } from './catalog.module';
export { meterAgentFee, priceFor } from './pricing';
export type { ExecutionPrice, PricedRun } from './pricing';
export { executePath } from './routes';
export type { ExecuteRoute } from './routes';
export type { X402ResourceFilters } from './x402-resources';
export { ListX402Resources } from './usecases/list-x402-resources/list-x402-resources.usecase';
export { SearchX402Resources } from './usecases/search-x402-resources/search-x402-resources.usecase';
export { BuildX402Manifest } from './usecases/build-x402-manifest/build-x402-manifest.usecase';
export type { X402Manifest } from './usecases/build-x402-manifest/build-x402-manifest.usecase';
export {
  BuildX402DiscoveryManifest,
  DISCOVERY_MANIFEST_MAX_ITEMS,
} from './usecases/build-x402-discovery-manifest/build-x402-discovery-manifest.usecase';
export type { PagedDiscoveryManifest } from './usecases/build-x402-discovery-manifest/build-x402-discovery-manifest.usecase';
export { BuildAgentCard } from './usecases/build-agent-card/build-agent-card.usecase';
export type { MarketplaceAgentCard } from './usecases/build-agent-card/build-agent-card.usecase';
export { BuildLlmsTxt } from './usecases/build-llms-txt/build-llms-txt.usecase';
// Tests only: no production code imports these (a test reaches a lib through its barrel).
export { MANIFEST_TTL_MS } from './manifest-cache';
