export { ExecutionEntity } from './entities/execution.entity';
export { AgentCaller } from './agent-caller';
export type { AgentCallPayload, AgentCallResult, ChainCallContext } from './agent-caller';
export { ExecuteRejected } from './execution.types';
export type { ExecuteCommand, ExecuteResult, ExecuteRoute, ExecutionOutcome, Settlement } from './execution.types';
export { discoveryFor } from './execution-factory';
export { ExecutionsRepository } from './executions.repository';
export type { RunCompletion, RunFailure } from './executions.repository';
export { RateLimiter } from './admission/rate-limiter';
export { InFlightRuns, MAX_WAITERS } from './admission/in-flight-runs';
export type { InFlightRun } from './admission/in-flight-runs';
export type { Admission, ClaimRequest, RateLimitState, RunClaim, RunClaimRequest } from './admission/rate-limiter';
export { ExecuteTargetCache } from './admission/execute-target-cache';
export { FundingSource } from './funding-source';
export { ChargeExecution } from './usecases/run/charge-execution/charge-execution.usecase';
export type { ChargeRequest } from './usecases/run/charge-execution/charge-execution.usecase';
export { AdmitExecution } from './usecases/paid/admit-execution/admit-execution.usecase';
export type { Admitted, Replayed } from './usecases/paid/admit-execution/admit-execution.usecase';
export { Execute } from './usecases/paid/execute/execute.usecase';
export { ExecuteChained } from './usecases/chain/execute-chained/execute-chained.usecase';
export type { ChainedResult, ChainView } from './usecases/chain/execute-chained/execute-chained.usecase';
export { ExecuteChainRoot } from './usecases/chain/execute-chain-root/execute-chain-root.usecase';
export type { ChainRequest } from './usecases/chain/execute-chain-root/chain-request';
export { BudgetCheck } from './usecases/chain/budget-check/budget-check.usecase';
export type { BudgetCheckRequest, BudgetEstimate } from './usecases/chain/budget-check/budget-check.usecase';
export { RetryExecution } from './usecases/paid/retry-execution/retry-execution.usecase';
export { GetExecution } from './usecases/paid/get-execution/get-execution.usecase';
export type { ExecutionView } from './usecases/paid/get-execution/get-execution.usecase';
export { GetPaymentStatus, PAYMENT_STATUS_LIMIT } from './usecases/paid/get-payment-status/get-payment-status.usecase';
export type { PaymentStatusView } from './usecases/paid/get-payment-status/get-payment-status.usecase';
export { PAYMENT_STATUSES } from './usecases/paid/get-payment-status/payment-status';
export type { PaymentStatusName } from './usecases/paid/get-payment-status/payment-status';
export { RunPendingExecution } from './usecases/paid/run-pending-execution/run-pending-execution.usecase';
export type { PendingRunOutcome } from './usecases/paid/run-pending-execution/run-pending-execution.usecase';
export { FinishSettlement } from './usecases/paid/finish-settlement/finish-settlement.usecase';
export { CountRejectedExecute } from './usecases/shared/count-rejected-execute/count-rejected-execute.usecase';
export { CollectExecutionEvidence } from './usecases/shared/collect-execution-evidence/collect-execution-evidence.usecase';
export type {
  ExecutionEvidence,
  ExecutionFacts,
} from './usecases/shared/collect-execution-evidence/collect-execution-evidence.usecase';
export { EvidenceKeys } from './usecases/shared/collect-execution-evidence/evidence-keys';
export { ReceiptSalts } from './receipt-salts';
export { MarkExecutionRefunded } from './usecases/shared/mark-execution-refunded/mark-execution-refunded.usecase';
export { PruneIdempotencyKeys } from './usecases/shared/prune-idempotency-keys/prune-idempotency-keys.usecase';
export { PruneExecutionPayloads } from './usecases/shared/prune-execution-payloads/prune-execution-payloads.usecase';
export { MeasurePayloadStorage } from './usecases/shared/measure-payload-storage/measure-payload-storage.usecase';
export { EnforcePayloadCap } from './usecases/shared/enforce-payload-cap/enforce-payload-cap.usecase';
export type { PayloadBytes, PayloadScope, PayloadStorage } from './execution-payloads.repository';
export { ExecutionModule } from './execution.module';
export { X402CatalogModule } from './x402-catalog/x402-catalog.module';
export type { X402ResourceFilters } from './x402-catalog/x402-resources';
export { ListX402Resources } from './usecases/x402/list-x402-resources/list-x402-resources.usecase';
export type { X402ResourcePage } from './usecases/x402/list-x402-resources/list-x402-resources.usecase';
export { SearchX402Resources } from './usecases/x402/search-x402-resources/search-x402-resources.usecase';
export type { X402SearchResult } from './usecases/x402/search-x402-resources/search-x402-resources.usecase';
export { MANIFEST_TTL_MS } from './x402-catalog/manifest-cache';
export {
  BuildX402Manifest,
  MANIFEST_MAX_RESOURCES,
} from './usecases/x402/build-x402-manifest/build-x402-manifest.usecase';
export type { X402Manifest } from './usecases/x402/build-x402-manifest/build-x402-manifest.usecase';
export {
  BuildX402DiscoveryManifest,
  DISCOVERY_MANIFEST_MAX_ITEMS,
} from './usecases/x402/build-x402-discovery-manifest/build-x402-discovery-manifest.usecase';
export type { PagedDiscoveryManifest } from './usecases/x402/build-x402-discovery-manifest/build-x402-discovery-manifest.usecase';
export { AGENT_CARD_MAX_SKILLS, BuildAgentCard } from './usecases/x402/build-agent-card/build-agent-card.usecase';
export type { MarketplaceAgentCard } from './usecases/x402/build-agent-card/build-agent-card.usecase';
export { BuildLlmsTxt, LLMS_TXT_MAX_CAPABILITIES } from './usecases/x402/build-llms-txt/build-llms-txt.usecase';
export { WorkPartiesRepository } from './work-parties.repository';
export type { DeliveryParty, RunParties } from './work-parties.repository';
