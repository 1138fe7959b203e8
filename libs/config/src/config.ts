/* The only module that reads process.env (lint enforces it elsewhere). */
import { createPrivateKey } from 'node:crypto';
import { computeAddress, isAddress } from 'ethers';
import { AppConfig, NodeEnv, PaymentNetwork, SettlementMode } from './app-config';
import {
  checkDatabaseUrls,
  checkMetricsHost,
  readPublicBaseUrl,
  redisClusterNodes,
  trustProxyList,
} from './config-network';
import { ConfigError, Env, isLoopbackHost, Reader } from './config-reader';
import { readReserveAndReputation } from './config-reputation';
import { DEV_CHAIN_TOKEN_SEED, DEV_PLATFORM_WALLET, DEV_SIGNING_SEED, publicValueProblems } from './public-values';

export { ConfigError } from './config-reader';
export { DEV_PLATFORM_WALLET } from './public-values';

export { AppConfig } from './app-config';
export type { NodeEnv, PaymentNetwork, SettlementMode } from './app-config';

const NETWORKS: readonly PaymentNetwork[] = ['base', 'base-sepolia', 'ethereum'];

/** Coinbase's hosted x402 facilitator (v2 API), used when a CDP API key is set without FACILITATOR_URL. */
export const CDP_FACILITATOR_URL = 'https://api.cdp.coinbase.com/platform/v2/x402';

export function loadConfig(env: Env = process.env): AppConfig {
  const r = new Reader(env);
  const c = new AppConfig();
  c.nodeEnv = r.oneOf<NodeEnv>('NODE_ENV', ['development', 'test', 'production'], 'development');
  c.port = r.int('PORT', 3000, 0, 65535);
  c.databaseUrl = r.url('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/agora', ['postgres:', 'postgresql:'])!;
  c.databasePoolSize = r.int('DATABASE_POOL_SIZE', 20, 1, 500);
  c.databaseReadUrl = r.url('DATABASE_READ_URL', undefined, ['postgres:', 'postgresql:']) ?? null;
  c.databaseReadMaxLagMs = r.int('DATABASE_READ_MAX_LAG_MS', 2_000, 0, 600_000);
  c.databaseReadProbeMs = r.int('DATABASE_READ_PROBE_MS', 250, 20, 60_000);
  c.redisUrl = r.url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:'])!;
  c.redisClusterNodes = redisClusterNodes(r);
  c.queuePrefix = r.str('QUEUE_PREFIX', 'agora')!;
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(c.queuePrefix))
    r.problems.push('QUEUE_PREFIX must be 1-64 letters, digits, _ or -');
  checkDatabaseUrls(r, c);
  readPublicBaseUrl(r, c);
  c.trustProxy = trustProxyList(r);
  c.logLevel = r.oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info');

  c.settlementMode = r.oneOf<SettlementMode>('SETTLEMENT_MODE', ['local', 'evm', 'facilitator'], 'local');
  // JSON-RPC over HTTP (libs/onchain's FetchRequest): a ws:// node would fail every call after start.
  c.evmRpcUrl = r.url('EVM_RPC_URL', undefined, ['http:', 'https:']);
  c.evmChainId = r.int('EVM_CHAIN_ID', 84532, 1);
  c.usdcAddress = r.str('USDC_ADDRESS');
  c.relayerPrivateKey = r.str('RELAYER_PRIVATE_KEY');
  c.settlementBatcherAddress = r.str('SETTLEMENT_BATCHER_ADDRESS');
  if (c.settlementBatcherAddress !== undefined && !isAddress(c.settlementBatcherAddress))
    r.problems.push('SETTLEMENT_BATCHER_ADDRESS must be a 0x address');
  c.ledgerShards = r.int('LEDGER_SHARDS', 16, 1, 256);
  c.consoleDir = r.str('CONSOLE_DIR') ?? 'dist/apps/console';
  c.feedMaxSubscribers = r.int('FEED_MAX_SUBSCRIBERS', 500, 1, 100_000);
  c.feedMaxPerIp = r.int('FEED_MAX_PER_IP', 3, 1, 1_000);
  c.evmBatchMax = r.int('EVM_BATCH_MAX', 50, 1);
  c.evmBatchWindowMs = r.int('EVM_BATCH_WINDOW_MS', 60, 0, 1000);
  c.evmBatchMin = Math.min(r.int('EVM_BATCH_MIN', 8, 1), c.evmBatchMax);
  c.evmPollMs = r.int('EVM_POLL_MS', 100, 10);
  c.evmReceiptTimeoutMs = r.int('EVM_RECEIPT_TIMEOUT_MS', 30_000, 100);
  c.evmResendAfterMs = r.int('EVM_RESEND_AFTER_MS', 30_000, 100);
  c.evmLogLookbackBlocks = r.int('EVM_LOG_LOOKBACK_BLOCKS', 100_000, 1);
  c.payoutClaimMs = r.int('PAYOUT_CLAIM_MS', 15_000, 100);
  c.faultKillAt = r.str('FAULT_KILL_AT');
  if (c.faultKillAt !== undefined && c.nodeEnv !== 'test')
    r.problems.push('FAULT_KILL_AT is for tests; it needs NODE_ENV=test');
  c.cdpApiKeyId = r.str('CDP_API_KEY_ID');
  c.cdpApiKeySecret = r.str('CDP_API_KEY_SECRET');
  if (c.cdpApiKeySecret !== undefined && !isCdpKeySecret(c.cdpApiKeySecret))
    r.problems.push(
      'CDP_API_KEY_SECRET must be a CDP API key secret: a P-256 key in PKCS#8 PEM, or 64 bytes of base64',
    );
  if ((c.cdpApiKeyId === undefined) !== (c.cdpApiKeySecret === undefined))
    r.problems.push('CDP_API_KEY_ID and CDP_API_KEY_SECRET go together: set both or neither');
  // With a CDP key and no URL, the facilitator is Coinbase's hosted one.
  c.facilitatorUrl = r.url('FACILITATOR_URL', c.cdpApiKeyId ? CDP_FACILITATOR_URL : undefined, ['http:', 'https:']);
  c.facilitatorAuthHeaders = r.headers('FACILITATOR_AUTH_HEADERS');
  // Credentials never cross the network in clear text (loopback aside: a local facilitator or a test).
  const credentials = c.cdpApiKeyId !== undefined || Object.keys(c.facilitatorAuthHeaders).length > 0;
  if (credentials && c.facilitatorUrl?.startsWith('http:') && !isLoopbackHost(new URL(c.facilitatorUrl).hostname)) {
    r.problems.push(
      'FACILITATOR_URL must be https when the facilitator is sent credentials (FACILITATOR_AUTH_HEADERS, CDP_API_KEY_*)',
    );
  }
  // The fixed development wallet and seeds are public: they serve only where no real money moves
  // (local settlement outside production). Any other settlement must name its own, whatever NODE_ENV says.
  const realMoney = c.nodeEnv === 'production' || c.settlementMode !== 'local';
  const whyRequired =
    'when NODE_ENV=production or SETTLEMENT_MODE is not local (the development default is public; npm run init:env writes your own)';
  c.platformWallet = r.str('PLATFORM_WALLET', realMoney ? undefined : DEV_PLATFORM_WALLET) ?? '';
  if (c.platformWallet === '') r.problems.push(`PLATFORM_WALLET is required ${whyRequired}`);
  if (c.usdcAddress !== undefined && !isAddress(c.usdcAddress)) r.problems.push('USDC_ADDRESS must be a 0x address');
  if (c.platformWallet !== '' && !isAddress(c.platformWallet)) r.problems.push('PLATFORM_WALLET must be a 0x address');
  const relayer = relayerAddress(r, c.relayerPrivateKey);
  if (c.settlementMode === 'evm') {
    r.require('EVM_RPC_URL', c.evmRpcUrl, 'when SETTLEMENT_MODE=evm');
    r.require('USDC_ADDRESS', c.usdcAddress, 'when SETTLEMENT_MODE=evm');
    r.require('RELAYER_PRIVATE_KEY', c.relayerPrivateKey, 'when SETTLEMENT_MODE=evm');
    // One hot wallet receives payments and pays withdrawals (the evm adapter relies on it).
    if (relayer && isAddress(c.platformWallet) && relayer.toLowerCase() !== c.platformWallet.toLowerCase())
      r.problems.push(`PLATFORM_WALLET must be RELAYER_PRIVATE_KEY's address ${relayer} when SETTLEMENT_MODE=evm`);
  }
  if (c.settlementMode === 'facilitator')
    r.require('FACILITATOR_URL', c.facilitatorUrl, 'when SETTLEMENT_MODE=facilitator');

  const networks = (r.str('PAYMENT_NETWORKS', 'base-sepolia') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = networks.filter((n) => !(NETWORKS as readonly string[]).includes(n));
  if (unknown.length > 0 || networks.length === 0) {
    r.problems.push(`PAYMENT_NETWORKS must be a comma list of ${NETWORKS.join(', ')} (got "${networks.join(',')}")`);
  }
  c.paymentNetworks = [
    ...new Set(networks.filter((n): n is PaymentNetwork => (NETWORKS as readonly string[]).includes(n))),
  ];

  c.adminApiKey = r.str('ADMIN_API_KEY');
  // A scraper holds this token, so it is never the key that resolves disputes.
  c.metricsToken = r.str('METRICS_TOKEN');
  c.metricsPort = r.int('METRICS_PORT', 0, 0, 65535);
  c.metricsHost = r.str('METRICS_HOST', '127.0.0.1')!;
  checkMetricsHost(r, c.metricsHost);
  if (c.metricsToken !== undefined && c.metricsToken.length < 16)
    r.problems.push('METRICS_TOKEN must be at least 16 characters');
  if (c.metricsToken !== undefined && c.metricsToken === c.adminApiKey)
    r.problems.push('METRICS_TOKEN must differ from ADMIN_API_KEY');
  if (c.metricsPort !== 0 && c.metricsToken === undefined && !isLoopbackHost(c.metricsHost)) {
    r.problems.push(
      `METRICS_HOST ${c.metricsHost} is reachable from other machines: set METRICS_TOKEN, or bind the metrics port to loopback`,
    );
  }
  // Ed25519 seed for signing calls to agents; development has a fixed one, production must set its own.
  c.platformSigningSeed = r.str('PLATFORM_SIGNING_SEED', realMoney ? undefined : DEV_SIGNING_SEED) ?? '';
  if (c.platformSigningSeed === '') r.problems.push(`PLATFORM_SIGNING_SEED is required ${whyRequired}`);
  else if (!/^[0-9a-fA-F]{64}$/.test(c.platformSigningSeed))
    r.problems.push('PLATFORM_SIGNING_SEED must be 64 hex characters (a 32-byte Ed25519 seed)');
  if (c.adminApiKey !== undefined && c.adminApiKey.length < 16)
    r.problems.push('ADMIN_API_KEY must be at least 16 characters');
  c.outboundAllowHttp = r.bool('OUTBOUND_ALLOW_HTTP', false);
  c.outboundAllowPrivate = r.bool('OUTBOUND_ALLOW_PRIVATE', false);
  if (c.nodeEnv === 'production' && (c.outboundAllowHttp || c.outboundAllowPrivate)) {
    r.problems.push(
      'OUTBOUND_ALLOW_HTTP and OUTBOUND_ALLOW_PRIVATE are for development and tests; they cannot be on when NODE_ENV=production',
    );
  }
  c.rateLimitClientPerMin = r.int('RATE_LIMIT_CLIENT_PER_MIN', 120, 1);
  c.rateLimitReadsPerMin = r.int('RATE_LIMIT_READS_PER_MIN', 600, 1);
  c.rateLimitWritesPerMin = r.int('RATE_LIMIT_WRITES_PER_MIN', 60, 1);
  c.rateLimitBudgetChecksPerMin = r.int('RATE_LIMIT_BUDGET_CHECKS_PER_MIN', 10, 1);
  c.rateLimitCatalogPerMin = r.int('RATE_LIMIT_CATALOG_PER_MIN', 120, 1);
  c.paymentIdentifierRequired = r.bool('PAYMENT_IDENTIFIER_REQUIRED', false);
  c.rateLimitAgentPerMin = r.int('RATE_LIMIT_AGENT_PER_MIN', 600, 1);
  c.discoverTotalCap = r.int('DISCOVER_TOTAL_CAP', 1000, 1);
  c.executionTimeoutMs = r.int('EXECUTION_TIMEOUT_MS', 30_000, 100);
  c.runClaimGraceMs = r.int('RUN_CLAIM_GRACE_MS', 60_000, 1_000);
  c.executionOutputMaxBytes = r.int('EXECUTION_OUTPUT_MAX_BYTES', 262_144, 1_024, 16_777_216);
  c.executionPayloadRetentionDays = r.int('EXECUTION_PAYLOAD_RETENTION_DAYS', 30, 0, 36_500);
  c.unchargedPayloadRetentionHours = r.int('UNCHARGED_PAYLOAD_RETENTION_HOURS', 24, 1, 8_760);
  c.unchargedInputKeepBytes = r.int('UNCHARGED_INPUT_KEEP_BYTES', 1_024, 0, 65_536);
  c.payloadStorageCapBytes = r.int('PAYLOAD_STORAGE_CAP_BYTES', 268_435_456, 0, Number.MAX_SAFE_INTEGER);
  c.storageMetricsIntervalMs = r.int('STORAGE_METRICS_INTERVAL_MS', 300_000, 0);
  c.seriesIntervalMs = r.int('SERIES_INTERVAL_MS', 2_000, 0, 3_600_000);
  c.seriesLagMs = r.int('SERIES_LAG_MS', 1_000, 0, 600_000);
  c.seriesBatch = r.int('SERIES_BATCH', 20_000, 1, 1_000_000);
  c.healthProbeIntervalS = r.int('HEALTH_PROBE_INTERVAL_S', 300, 0, 86_400);
  c.healthProbeTimeoutMs = r.int('HEALTH_PROBE_TIMEOUT_MS', 5_000, 100, 60_000);
  c.healthProbePerHost = r.int('HEALTH_PROBE_PER_HOST', 4, 1, 1_000);
  c.healthProbeConcurrency = r.int('HEALTH_PROBE_CONCURRENCY', 200, 1, 10_000);
  c.healthDownAfterFailures = r.int('HEALTH_DOWN_AFTER_FAILURES', 2, 1, 100);
  c.healthHideAfterS = r.int('HEALTH_HIDE_AFTER_S', 3_600, 0);
  c.healthDeactivateAfterS = r.int('HEALTH_DEACTIVATE_AFTER_S', 259_200, 0);
  if (c.healthDeactivateAfterS > 0 && c.healthDeactivateAfterS < c.healthHideAfterS)
    r.problems.push('HEALTH_DEACTIVATE_AFTER_S must not be shorter than HEALTH_HIDE_AFTER_S (0: never deactivate)');
  c.settlementLeaseMs = r.int('SETTLEMENT_LEASE_MS', 10_000, 100);
  c.registrationBindGraceMs = r.int('REGISTRATION_BIND_GRACE_MS', 180_000, 100);
  if (c.registrationBindGraceMs < c.settlementLeaseMs)
    r.problems.push('REGISTRATION_BIND_GRACE_MS must not be shorter than SETTLEMENT_LEASE_MS');
  c.chainTokenTtlS = r.int('CHAIN_TOKEN_TTL_S', 30, 1);
  c.chainTimeoutS = r.int('CHAIN_TIMEOUT_S', 300, 1);
  // Chain tokens: the current seed first, then previous ones still accepted; development has a fixed one.
  c.chainTokenSeeds = (r.str('CHAIN_TOKEN_SEEDS', realMoney ? undefined : DEV_CHAIN_TOKEN_SEED) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (
    c.chainTokenSeeds.length === 0 ||
    c.chainTokenSeeds.length > 4 ||
    !c.chainTokenSeeds.every((s) => /^[0-9a-fA-F]{64}$/.test(s))
  ) {
    r.problems.push(
      'CHAIN_TOKEN_SEEDS must be 1-4 comma-separated Ed25519 seeds of 64 hex characters (the first signs; the rest stay valid)',
    );
  } else if (c.chainTokenSeeds.some((s) => s.toLowerCase() === c.platformSigningSeed.toLowerCase())) {
    r.problems.push('CHAIN_TOKEN_SEEDS must not reuse PLATFORM_SIGNING_SEED');
  }
  // Offers and receipts: derived from PLATFORM_SIGNING_SEED unless set; rotation lists the new seed first.
  c.receiptSigningSeeds = (r.str('RECEIPT_SIGNING_SEEDS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (c.receiptSigningSeeds.length > 4 || !c.receiptSigningSeeds.every((s) => /^[0-9a-fA-F]{64}$/.test(s))) {
    r.problems.push(
      'RECEIPT_SIGNING_SEEDS must be 1-4 comma-separated seeds of 64 hex characters (the first signs; the rest stay published)',
    );
  } else if (
    c.receiptSigningSeeds.some((s) =>
      [c.platformSigningSeed, ...c.chainTokenSeeds].some((o) => o.toLowerCase() === s.toLowerCase()),
    )
  ) {
    r.problems.push('RECEIPT_SIGNING_SEEDS must not reuse PLATFORM_SIGNING_SEED or CHAIN_TOKEN_SEEDS');
  }
  c.receiptFormat = r.oneOf('RECEIPT_FORMAT', ['jws', 'eip712', 'none'], 'jws');
  c.escrowHoldStandardS = r.int('ESCROW_HOLD_STANDARD_S', 86_400);
  c.escrowHoldAtRiskS = r.int('ESCROW_HOLD_AT_RISK_S', 259_200);
  c.escrowHoldCriticalS = r.int('ESCROW_HOLD_CRITICAL_S', 604_800);
  c.disputeResponseWindowS = r.int('DISPUTE_RESPONSE_WINDOW_S', 172_800, 1);
  c.disputeFilingWindowS = r.int('DISPUTE_FILING_WINDOW_S', 604_800, 1);
  c.refundDustMicro = r.int('REFUND_DUST_MICRO', 10_000, 0, 1_000_000_000);
  readReserveAndReputation(r, c);

  const delays = (r.str('WEBHOOK_RETRY_DELAYS_MS', '0,60000,300000,1800000,7200000') ?? '')
    .split(',')
    .map((s) => s.trim());
  if (delays.length !== 5 || delays.some((d) => !/^\d+$/.test(d))) {
    r.problems.push(
      `WEBHOOK_RETRY_DELAYS_MS must be five comma-separated non-negative integers (got "${delays.join(',')}")`,
    );
    c.webhookRetryDelaysMs = [0, 60_000, 300_000, 1_800_000, 7_200_000];
  } else {
    c.webhookRetryDelaysMs = delays.map(Number);
  }
  c.webhookTimeoutMs = r.int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000);
  c.webhookListUrls = r.oneOf('WEBHOOK_LIST_URLS', ['origin', 'full'], 'origin');
  c.workerAgentConcurrency = r.int('WORKER_AGENT_CONCURRENCY', 2, 0, 1_000);
  c.webhookHostConcurrency = r.int('WEBHOOK_HOST_CONCURRENCY', 2, 0, 1_000);
  c.workerPartyConcurrency = r.int('WORKER_PARTY_CONCURRENCY', 4, 0, 1_000);
  c.webhookPartyConcurrency = r.int('WEBHOOK_PARTY_CONCURRENCY', 8, 0, 1_000);
  c.workerFundedVolumeMicro = r.int('WORKER_FUNDED_VOLUME_MICRO', 5_000_000, 1, Number.MAX_SAFE_INTEGER);
  c.authSignatureWindowS = r.int('AUTH_SIGNATURE_WINDOW_S', 300, 1, 86_400);
  c.bodyLimitBytes = r.int('BODY_LIMIT_BYTES', 1_048_576, 1_024);
  c.workerHeartbeatMs = r.int('WORKER_HEARTBEAT_MS', 5_000, 100);
  c.maintenanceIntervalMs = r.int('MAINTENANCE_INTERVAL_MS', 30_000, 100);
  c.enqueueTimeoutMs = r.int('ENQUEUE_TIMEOUT_MS', 1_000, 10);
  c.invariantCheckIntervalMs = r.int('INVARIANT_CHECK_INTERVAL_MS', 600_000, 0);
  // Set or defaulted, a public value never guards real money (the defaults above serve local development).
  r.problems.push(...publicValueProblems({ ...c, production: c.nodeEnv === 'production', realMoney }));

  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return c;
}

/** For process entry points: the config, or a clear message on stderr and exit code 1. */
export function loadConfigOrExit(processName: string, env: Env = process.env): AppConfig {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`agora ${processName}: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/** RELAYER_PRIVATE_KEY's address, or a problem: 32 bytes of hex that are a secp256k1 key (not 0, below the order). */
function relayerAddress(r: Reader, key: string | undefined): string | null {
  if (key === undefined) return null;
  try {
    if (/^0x[0-9a-fA-F]{64}$/.test(key)) return computeAddress(key);
  } catch {
    // out of the curve's range: named below
  }
  r.problems.push('RELAYER_PRIVATE_KEY must be 0x followed by 64 hex characters, a valid secp256k1 private key');
  return null;
}

/** What Coinbase's SDK signs with (else every facilitator call fails): an Ed25519 key of 64 bytes, base64, or a P-256 PKCS#8 PEM. */
function isCdpKeySecret(secret: string): boolean {
  if (Buffer.from(secret, 'base64').length === 64) return true;
  if (!secret.startsWith('-----BEGIN PRIVATE KEY-----')) return false;
  try {
    const key = createPrivateKey(secret);
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
  } catch {
    return false;
  }
}
