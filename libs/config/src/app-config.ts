/* The configuration's type: what loadConfig (config.ts) reads and validates. */
export type SettlementMode = 'local' | 'evm' | 'facilitator';
export type PaymentNetwork = 'base' | 'base-sepolia' | 'ethereum';
export type NodeEnv = 'development' | 'test' | 'production';

/** Typed, validated configuration (resolutions §11 plus a few operational settings). */
export class AppConfig {
  nodeEnv: NodeEnv;
  port: number;
  databaseUrl: string;
  databasePoolSize: number;
  /**
   * A streaming replica for the public reads (null: everything reads the primary). A read goes to
   * it only while it has replayed what the primary wrote up to `databaseReadMaxLagMs` ago, checked
   * every `databaseReadProbeMs` (libs/database ReplicaReads).
   */
  databaseReadUrl: string | null;
  databaseReadMaxLagMs: number;
  databaseReadProbeMs: number;
  /** Rows each of the platform's hot ledger accounts is spread over (ledger-shards.ts). */
  ledgerShards: number;
  redisUrl: string;
  /**
   * A Redis Cluster's seed nodes (`redis://` or `rediss://` URLs; credentials and TLS from the
   * first). Set: every Redis use goes to the cluster instead of `redisUrl` (libs/queues redis.options).
   */
  redisClusterNodes: string[] | null;
  queuePrefix: string;
  publicBaseUrl: string;
  /** PUBLIC_BASE_URL_LOOPBACK: production accepts an http base URL on this machine (a trial, a test), never a public one. */
  publicBaseUrlLoopback: boolean;
  /** The built web console (apps/console) the api serves at `/` (no index.html there: the API alone). */
  consoleDir: string;
  /** Watchers of the live execution feed (server-sent events) one api process takes at most. */
  feedMaxSubscribers: number;
  /** Live feed streams one address may hold open at once. */
  feedMaxPerIp: number;
  /** Express's `trust proxy`: the peers whose X-Forwarded-For gives the caller's IP (names, addresses, CIDR ranges). */
  trustProxy: string;
  logLevel: string;
  settlementMode: SettlementMode;
  evmRpcUrl?: string;
  evmChainId: number;
  usdcAddress?: string;
  relayerPrivateKey?: string;
  /** The project's SettlementBatcher contract: settlements arriving together go out in one transaction. Unset: one transaction each. */
  settlementBatcherAddress?: string;
  /** Most settlements in one batch transaction. */
  evmBatchMax: number;
  /** How long a settlement group may gather behind a transaction in flight. */
  evmBatchWindowMs: number;
  /** Under load, a smaller settlement group gathers (up to the window) until it holds this many. */
  evmBatchMin: number;
  /** How often the receipt watcher asks for new blocks while anything is awaited (about the block time or less). */
  evmPollMs: number;
  /** How long a request waits for its transaction's receipt before the settlement is left to the retries. */
  evmReceiptTimeoutMs: number;
  /** A signed transaction still undecided this long after it was persisted is broadcast again (sweeper). */
  evmResendAfterMs: number;
  /** How far back (blocks) recovery looks for the transaction that used an authorization, in windows of 10,000. */
  evmLogLookbackBlocks: number;
  /** How long a worker holds a claimed payout before another may take it over (deciding its transfer from the chain first). */
  payoutClaimMs: number;
  /** Tests only (NODE_ENV=test): the process kills itself with SIGKILL at this fault point. */
  faultKillAt?: string;
  facilitatorUrl?: string;
  /** Headers sent with every facilitator call (FACILITATOR_AUTH_HEADERS): secrets, never logged. */
  facilitatorAuthHeaders: Record<string, string>;
  /** A Coinbase CDP API key: each facilitator call carries a fresh JWT signed with it (secret, never logged). */
  cdpApiKeyId?: string;
  cdpApiKeySecret?: string;
  platformWallet: string;
  paymentNetworks: PaymentNetwork[];
  adminApiKey?: string;
  /** Bearer token for GET /metrics (its own: never ADMIN_API_KEY; unset: the api's route answers 404). */
  metricsToken?: string;
  /** The worker's Prometheus port (0: none). */
  metricsPort: number;
  /** The address the worker's Prometheus port binds (loopback unless configured). */
  metricsHost: string;
  platformSigningSeed: string;
  outboundAllowHttp: boolean;
  outboundAllowPrivate: boolean;
  rateLimitClientPerMin: number;
  /** Public reads (GET) per caller IP per minute, across api processes. */
  rateLimitReadsPerMin: number;
  /** Every other unpaid request (POST/PUT/PATCH/DELETE but the paid execute) per caller IP per minute, across api processes. */
  rateLimitWritesPerMin: number;
  /** `POST /chains/budget-check` (free, and it validates against the target's schema) per caller IP per minute: its own window. */
  rateLimitBudgetChecksPerMin: number;
  /** The routes outside /api/v1 (the x402 discovery API, the manifests) per caller IP per minute: their own window. */
  rateLimitCatalogPerMin: number;
  /** Execute routes require an x402 payment identifier (PAYMENT_IDENTIFIER_REQUIRED): a payment without one is 400. */
  paymentIdentifierRequired: boolean;
  rateLimitAgentPerMin: number;
  /** `/discover`'s total is exact up to this many agents, then saturates (`totalExact` false). */
  discoverTotalCap: number;
  executionTimeoutMs: number;
  /** How long past the agent's timeout a running execution keeps its claim (for settling) before the worker may take it. */
  runClaimGraceMs: number;
  /** Largest agent output stored (its JSON, UTF-8 bytes); a larger one is a failed run, nothing charged. */
  executionOutputMaxBytes: number;
  /** Inputs and outputs of executions older than this many days are pruned (rows, hashes and money stay); 0: kept forever. */
  executionPayloadRetentionDays: number;
  /**
   * A run that moved no money (failed, timed out, settlement expired) keeps digests (SHA-256) of its
   * payloads, its input too when its JSON is at most unchargedInputKeepBytes (a retry sends it); all
   * of it is pruned after this many hours.
   */
  unchargedPayloadRetentionHours: number;
  unchargedInputKeepBytes: number;
  /** Payload bytes one agent's, or one payer's, executions may hold: beyond, the worker prunes the oldest (uncharged first); 0: no cap. */
  payloadStorageCapBytes: number;
  /** How often the worker measures the payload bytes each agent's executions hold (metrics); 0: never. */
  storageMetricsIntervalMs: number;
  /** The worker's roll-up of the console's time series (0: off), how far behind now it reads, and its batch. */
  seriesIntervalMs: number;
  seriesLagMs: number;
  seriesBatch: number;
  /** Seconds between two health probes of an agent (jittered +-10%); 0: the worker does not probe. */
  healthProbeIntervalS: number;
  healthProbeTimeoutMs: number;
  /** At most this many probes in flight to one host (per worker). */
  healthProbePerHost: number;
  /** At most this many probes in flight in all (per worker). */
  healthProbeConcurrency: number;
  /** Consecutive failed probes that make an agent `down` (and one success makes it `up`). */
  healthDownAfterFailures: number;
  /** An agent failing every probe for this long is not listed by discovery (0: never hidden). */
  healthHideAfterS: number;
  /** An agent failing every probe for this long is set inactive (0: never). */
  healthDeactivateAfterS: number;
  /** How long a settlement call may run before the sweeper takes it over (asking the chain first). */
  settlementLeaseMs: number;
  /**
   * How long a settled registration fee may wait for its agent (its request's transaction) before the
   * worker refunds it: longer than a lease, as no heartbeat covers the step between settling and binding.
   */
  registrationBindGraceMs: number;
  chainTokenTtlS: number;
  /** Ed25519 seeds (hex) for chain tokens: the first signs, every one verifies (rotation keeps the previous valid). */
  chainTokenSeeds: string[];
  /** Seeds (hex) of the keys that sign x402 offers and receipts: the first signs, every one stays published (empty: one derived from platformSigningSeed). */
  receiptSigningSeeds: string[];
  /** The offer-receipt signature format: `jws` (EdDSA) or `eip712` (secp256k1); `none`: no signed offers or receipts. */
  receiptFormat: 'jws' | 'eip712' | 'none';
  chainTimeoutS: number;
  escrowHoldStandardS: number;
  escrowHoldAtRiskS: number;
  escrowHoldCriticalS: number;
  disputeResponseWindowS: number;
  disputeFilingWindowS: number;
  /**
   * Rolling reserve on withdrawals; an established record: RESERVE_MIN_VOLUME_MICRO of settled agent fees, charged at
   * least RESERVE_MIN_AGE_S ago, from at least RESERVE_MIN_FUNDED_PAYERS distinct funded payers, each counted up to
   * what it paid agora elsewhere (matured spend).
   */
  withdrawalReserve: boolean;
  reserveMinVolumeMicro: number;
  reserveMinAgeS: number;
  reserveMinFundedPayers: number;
  /** Refunds below this (micro-USDC) wait for the payer's next refund, never sent on chain alone. */
  refundDustMicro: number;
  /** One payer adds at most this to one agent's score a rolling day, and penalizes it once per interval (s). */
  reputationPayerDailyCap: number;
  reputationPenaltyIntervalS: number;
  /** `weighted` (default): gains only from funded payers, unfunded payers' penalties capped per agent; `spec`: the literal deltas. */
  reputationModel: 'weighted' | 'spec';
  /** A funded payer has paid at least this (micro-USDC, settled agent fees) to agents of other owners than the one judged. */
  fundedPayerMinSpendMicro: number;
  /** Weighted model: the most unfunded payers' penalties take from one agent, in all, per REPUTATION_PENALTY_INTERVAL_S. */
  reputationUnfundedPenaltyCap: number;
  /** Weighted model: the most funded payers' penalties take from one agent per REPUTATION_PENALTY_INTERVAL_S, in all. */
  reputationFundedPenaltyCap: number;
  webhookRetryDelaysMs: number[];
  webhookTimeoutMs: number;
  /**
   * What `GET /webhooks/agent/:id` shows of each URL to a reader without the agent's signature or session:
   * `origin` (default: `https://host:port/`, no path or query, which may hold the receiver's token), `full` (the contract's literal).
   */
  webhookListUrls: 'origin' | 'full';
  /** Most runs of one agent going at once across the workers (the rest wait their turn); 0: no cap. */
  workerAgentConcurrency: number;
  /** Most deliveries and callbacks to one destination (the URL's host:port) going at once; 0: no cap. */
  webhookHostConcurrency: number;
  /**
   * Most runs of one owner's agents, and of one payer, going at once (twice that for a party with a
   * paid record, WORKER_FUNDED_VOLUME_MICRO); runs of owners with none share a pool of three times it; 0: no cap.
   */
  workerPartyConcurrency: number;
  /** The same for deliveries: of one party (a callback's payer, a webhook's agent owner); 0: no cap. */
  webhookPartyConcurrency: number;
  /** Agent fees charged (micro-USDC) to other wallets' agents (a payer) or from other wallets (an owner) that give the larger share, out of the pool. */
  workerFundedVolumeMicro: number;
  authSignatureWindowS: number;
  bodyLimitBytes: number;
  workerHeartbeatMs: number;
  maintenanceIntervalMs: number;
  /** How long a request waits for Redis to take a job it wakes the worker with (the row is committed; the sweeper covers a miss). */
  enqueueTimeoutMs: number;
  /** How often the worker checks the money invariants (G15); 0 turns the check off. */
  invariantCheckIntervalMs: number;
}
