import { CDP_FACILITATOR_URL, ConfigError, DEV_PLATFORM_WALLET, loadConfig } from './config';

/** A CDP API key secret's shape (an Ed25519 key: 64 bytes, base64). */
const CDP_SECRET = Buffer.alloc(64, 7).toString('base64');

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/agora',
      redisUrl: 'redis://127.0.0.1:6379',
      publicBaseUrl: 'http://localhost:3000',
      settlementMode: 'local',
      paymentNetworks: ['base-sepolia'],
      outboundAllowHttp: false,
      outboundAllowPrivate: false,
      rateLimitClientPerMin: 120,
      rateLimitAgentPerMin: 600,
      rateLimitReadsPerMin: 600,
      rateLimitWritesPerMin: 60,
      rateLimitBudgetChecksPerMin: 10,
      rateLimitCatalogPerMin: 120,
      paymentIdentifierRequired: false,
      executionTimeoutMs: 30_000,
      executionOutputMaxBytes: 262_144,
      executionPayloadRetentionDays: 30,
      storageMetricsIntervalMs: 300_000,
      seriesIntervalMs: 2_000,
      seriesLagMs: 1_000,
      seriesBatch: 20_000,
      chainTokenTtlS: 30,
      chainTimeoutS: 300,
      escrowHoldStandardS: 86_400,
      escrowHoldAtRiskS: 259_200,
      escrowHoldCriticalS: 604_800,
      disputeResponseWindowS: 172_800,
      disputeFilingWindowS: 604_800,
      withdrawalReserve: true,
      reserveMinVolumeMicro: 10_000_000,
      reserveMinAgeS: 259_200,
      reserveMinFundedPayers: 3,
      refundDustMicro: 10_000,
      reputationPayerDailyCap: 3,
      reputationPenaltyIntervalS: 3_600,
      reputationModel: 'weighted',
      fundedPayerMinSpendMicro: 1_000_000,
      reputationUnfundedPenaltyCap: 5,
      reputationFundedPenaltyCap: 10,
      webhookRetryDelaysMs: [0, 60_000, 300_000, 1_800_000, 7_200_000],
      workerAgentConcurrency: 2,
      webhookHostConcurrency: 2,
      workerPartyConcurrency: 4,
      webhookPartyConcurrency: 8,
      workerFundedVolumeMicro: 5_000_000,
      authSignatureWindowS: 300,
      bodyLimitBytes: 1_048_576,
    });
    expect(c.adminApiKey).toBeUndefined();
  });

  it('keeps the metrics token apart from the admin key and the worker port on loopback unless guarded', () => {
    const admin = 'admin-key-0123456789abcdef';
    const c = loadConfig({ ADMIN_API_KEY: admin, METRICS_PORT: '9464' });
    expect(c.metricsToken).toBeUndefined();
    expect(c.metricsHost).toBe('127.0.0.1');
    expect(() => loadConfig({ ADMIN_API_KEY: admin, METRICS_TOKEN: admin })).toThrow(
      /METRICS_TOKEN must differ from ADMIN_API_KEY/,
    );
    expect(() => loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })).toThrow(
      /METRICS_HOST 0\.0\.0\.0 is reachable from other machines/,
    );
    expect(
      loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: 'scrape-token-0123456789' })
        .metricsHost,
    ).toBe('0.0.0.0');
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '::1' }).metricsHost).toBe('::1');
  });

  it('reads overrides', () => {
    const c = loadConfig({
      PORT: '8080',
      PAYMENT_NETWORKS: 'base, ethereum',
      OUTBOUND_ALLOW_HTTP: 'true',
      WEBHOOK_RETRY_DELAYS_MS: '0,10,20,30,40',
    });
    expect(c.port).toBe(8080);
    expect(c.publicBaseUrl).toBe('http://localhost:8080');
    expect(c.paymentNetworks).toEqual(['base', 'ethereum']);
    expect(c.outboundAllowHttp).toBe(true);
    expect(c.webhookRetryDelaysMs).toEqual([0, 10, 20, 30, 40]);
  });

  it('takes Redis Cluster seed nodes from REDIS_CLUSTER_NODES, none by default', () => {
    expect(loadConfig({}).redisClusterNodes).toBeNull();
    expect(loadConfig({ REDIS_CLUSTER_NODES: ' redis://a:7000, rediss://u:p@b:7001 ' }).redisClusterNodes).toEqual([
      'redis://a:7000',
      'rediss://u:p@b:7001',
    ]);
  });

  it('reads facilitator headers as JSON or "Name: value" lines, and defaults the URL to the CDP facilitator with a CDP key', () => {
    expect(loadConfig({ FACILITATOR_AUTH_HEADERS: '{"Authorization":"Bearer a:b"}' }).facilitatorAuthHeaders).toEqual({
      Authorization: 'Bearer a:b',
    });
    expect(
      loadConfig({ FACILITATOR_AUTH_HEADERS: 'Authorization: Bearer a:b\nX-Api-Key: k' }).facilitatorAuthHeaders,
    ).toEqual({ Authorization: 'Bearer a:b', 'X-Api-Key': 'k' });
    expect(loadConfig({ FACILITATOR_AUTH_HEADERS: 'X-One: 1; X-Two: 2' }).facilitatorAuthHeaders).toEqual({
      'X-One': '1',
      'X-Two': '2',
    });
    expect(loadConfig({}).facilitatorAuthHeaders).toEqual({});
    const cdp = loadConfig({ SETTLEMENT_MODE: 'local', CDP_API_KEY_ID: 'id', CDP_API_KEY_SECRET: CDP_SECRET });
    expect(cdp.facilitatorUrl).toBe(CDP_FACILITATOR_URL);
    expect(
      loadConfig({ CDP_API_KEY_ID: 'id', CDP_API_KEY_SECRET: CDP_SECRET, FACILITATOR_URL: 'http://127.0.0.1:9' })
        .facilitatorUrl,
    ).toBe('http://127.0.0.1:9');
  });

  it('never quotes a facilitator header value in its problems (it holds a secret)', () => {
    expect(() => loadConfig({ FACILITATOR_AUTH_HEADERS: 'Authorization: top-secret\nbad header: x' })).toThrow(
      /entry 2 is not/,
    );
    expect(() => loadConfig({ FACILITATOR_AUTH_HEADERS: 'Authorization: top-secret\nbad header: x' })).not.toThrow(
      /top-secret/,
    );
    // A bare secret (no colon) is a valid-looking header name: still never quoted.
    expect(() => loadConfig({ FACILITATOR_AUTH_HEADERS: 'sk_live_abc123' })).toThrow(/entry 1 is not/);
    expect(() => loadConfig({ FACILITATOR_AUTH_HEADERS: 'sk_live_abc123' })).not.toThrow(/sk_live/);
    // A value may hold `;` when entries are lines.
    expect(loadConfig({ FACILITATOR_AUTH_HEADERS: 'X-Api-Key: a;b\nX-Two: 2' }).facilitatorAuthHeaders).toEqual({
      'X-Api-Key': 'a;b',
      'X-Two': '2',
    });
  });

  it.each([
    [{ PORT: '70000' }, /PORT must be an integer between 0 and 65535/],
    [{ PORT: '3.5' }, /PORT must be an integer/],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL must be a URL/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL must use redis: or rediss:/],
    [{ SETTLEMENT_MODE: 'paypal' }, /SETTLEMENT_MODE must be one of local, evm, facilitator/],
    [{ SETTLEMENT_MODE: 'facilitator' }, /FACILITATOR_URL is required/],
    [{ PLATFORM_WALLET: '0x123' }, /PLATFORM_WALLET must be a 0x address/],
    [{ RELAYER_PRIVATE_KEY: 'abc' }, /RELAYER_PRIVATE_KEY must be 0x followed by 64 hex/],
    [{ PAYMENT_NETWORKS: 'polygon' }, /PAYMENT_NETWORKS must be a comma list/],
    [{ OUTBOUND_ALLOW_HTTP: 'maybe' }, /OUTBOUND_ALLOW_HTTP must be true or false/],
    [{ WEBHOOK_RETRY_DELAYS_MS: '0,1,2' }, /WEBHOOK_RETRY_DELAYS_MS must be five/],
    [{ ADMIN_API_KEY: 'short' }, /ADMIN_API_KEY must be at least 16 characters/],
    [{ NODE_ENV: 'production', OUTBOUND_ALLOW_HTTP: 'true' }, /cannot be on when NODE_ENV=production/],
    [{ QUEUE_PREFIX: 'a:b' }, /QUEUE_PREFIX must be/],
    [{ REDIS_CLUSTER_NODES: 'http://a:7000' }, /REDIS_CLUSTER_NODES must be redis:\/\/ or rediss:\/\/ URLs/],
    [{ REDIS_CLUSTER_NODES: 'redis://a:7000,redis://b:7001/2' }, /with a host and no database/],
    [{ REDIS_CLUSTER_NODES: 'redis://a:7000,::' }, /REDIS_CLUSTER_NODES must be comma-separated redis:\/\/ URLs/],
    [{ WITHDRAWAL_RESERVE: 'maybe' }, /WITHDRAWAL_RESERVE must be one of on, off/],
    [{ RESERVE_MIN_VOLUME_MICRO: '1.5' }, /RESERVE_MIN_VOLUME_MICRO must be an integer/],
    [{ RESERVE_MIN_FUNDED_PAYERS: '0' }, /RESERVE_MIN_FUNDED_PAYERS must be an integer between 1 and 1000/],
    [{ REPUTATION_MODEL: 'count' }, /REPUTATION_MODEL must be one of weighted, spec/],
    [{ FUNDED_PAYER_MIN_SPEND_MICRO: '0' }, /FUNDED_PAYER_MIN_SPEND_MICRO must be an integer between 1 and/],
    [
      { REPUTATION_UNFUNDED_PENALTY_CAP: '101' },
      /REPUTATION_UNFUNDED_PENALTY_CAP must be an integer between 0 and 100/,
    ],
    [{ REPUTATION_FUNDED_PENALTY_CAP: '-1' }, /REPUTATION_FUNDED_PENALTY_CAP must be an integer between 0 and 100/],
    [{ EXECUTION_OUTPUT_MAX_BYTES: '100' }, /EXECUTION_OUTPUT_MAX_BYTES must be an integer between 1024 and 16777216/],
    [{ EXECUTION_PAYLOAD_RETENTION_DAYS: '-1' }, /EXECUTION_PAYLOAD_RETENTION_DAYS must be an integer/],
    [
      { UNCHARGED_PAYLOAD_RETENTION_HOURS: '0' },
      /UNCHARGED_PAYLOAD_RETENTION_HOURS must be an integer between 1 and 8760/,
    ],
    [{ UNCHARGED_INPUT_KEEP_BYTES: '70000' }, /UNCHARGED_INPUT_KEEP_BYTES must be an integer between 0 and 65536/],
    [{ PAYLOAD_STORAGE_CAP_BYTES: 'lots' }, /PAYLOAD_STORAGE_CAP_BYTES must be an integer/],
    [{ WORKER_AGENT_CONCURRENCY: '-1' }, /WORKER_AGENT_CONCURRENCY must be an integer between 0 and 1000/],
    [
      { FACILITATOR_AUTH_HEADERS: '{"Authorization": 5}' },
      /FACILITATOR_AUTH_HEADERS must be a JSON object of header names to strings/,
    ],
    [{ FACILITATOR_AUTH_HEADERS: '{not json' }, /FACILITATOR_AUTH_HEADERS must be a JSON object/],
    [{ FACILITATOR_AUTH_HEADERS: 'Bearer abc' }, /FACILITATOR_AUTH_HEADERS must be .*"Name: value" lines/],
    [{ CDP_API_KEY_ID: 'organizations/x/apiKeys/y' }, /CDP_API_KEY_ID and CDP_API_KEY_SECRET go together/],
  ])('stops on %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each(['evm', 'facilitator'])(
    'outside local settlement the public development wallet and seeds are refused whatever NODE_ENV says (%s)',
    (mode) => {
      for (const nodeEnv of ['development', 'test']) {
        const env = {
          NODE_ENV: nodeEnv,
          SETTLEMENT_MODE: mode,
          EVM_RPC_URL: 'http://127.0.0.1:8545',
          USDC_ADDRESS: DEV_PLATFORM_WALLET,
          // anvil's first account: DEV_PLATFORM_WALLET's key (evm mode wants the wallet's own key)
          RELAYER_PRIVATE_KEY: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
          FACILITATOR_URL: 'http://127.0.0.1:9',
        };
        expect(() => loadConfig(env)).toThrow(
          /PLATFORM_WALLET is required when NODE_ENV=production or SETTLEMENT_MODE is not local/,
        );
        expect(() => loadConfig(env)).toThrow(/PLATFORM_SIGNING_SEED is required/);
        expect(() => loadConfig(env)).toThrow(/CHAIN_TOKEN_SEEDS must be/);
        const named = {
          ...env,
          PLATFORM_WALLET: DEV_PLATFORM_WALLET,
          PLATFORM_SIGNING_SEED: 'ab'.repeat(32),
          CHAIN_TOKEN_SEEDS: 'cd'.repeat(32),
        };
        expect(loadConfig(named)).toMatchObject({
          settlementMode: mode,
          platformSigningSeed: 'ab'.repeat(32),
          chainTokenSeeds: ['cd'.repeat(32)],
        });
      }
      // Local settlement keeps the development defaults (no real money moves).
      expect(loadConfig({ SETTLEMENT_MODE: 'local' }).platformWallet).toBe(DEV_PLATFORM_WALLET);
    },
  );

  it("on a mainnet refuses anvil's public accounts whatever NODE_ENV says; on a test chain they serve", () => {
    const evm = {
      NODE_ENV: 'development',
      SETTLEMENT_MODE: 'evm',
      EVM_RPC_URL: 'http://127.0.0.1:8545',
      USDC_ADDRESS: '0x2222222222222222222222222222222222222222',
      PLATFORM_WALLET: DEV_PLATFORM_WALLET,
      PLATFORM_SIGNING_SEED: 'ab'.repeat(32),
      CHAIN_TOKEN_SEEDS: 'cd'.repeat(32),
      RELAYER_PRIVATE_KEY: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
    };
    expect(loadConfig(evm)).toMatchObject({ evmChainId: 84532 });
    expect(() => loadConfig({ ...evm, EVM_CHAIN_ID: '8453' })).toThrow(
      /PLATFORM_WALLET 0xf39F.* is a well-known development account/,
    );
    expect(() => loadConfig({ ...evm, EVM_CHAIN_ID: '8453' })).toThrow(
      /RELAYER_PRIVATE_KEY controls a well-known development account/,
    );
  });

  it('sends facilitator credentials over https only (loopback aside)', () => {
    const env = { FACILITATOR_URL: 'http://facilitator.example.com', FACILITATOR_AUTH_HEADERS: 'X-Api-Key: k' };
    expect(() => loadConfig(env)).toThrow(/FACILITATOR_URL must be https when the facilitator is sent credentials/);
    expect(() =>
      loadConfig({ FACILITATOR_URL: 'http://facilitator.example.com', CDP_API_KEY_ID: 'i', CDP_API_KEY_SECRET: 's' }),
    ).toThrow(/must be https/);
    expect(loadConfig({ ...env, FACILITATOR_URL: 'https://facilitator.example.com' }).facilitatorAuthHeaders).toEqual({
      'X-Api-Key': 'k',
    });
    expect(loadConfig({ ...env, FACILITATOR_URL: 'http://127.0.0.1:9' }).facilitatorUrl).toBe('http://127.0.0.1:9');
  });

  it('TRUST_PROXY takes a comma list of loopback, linklocal, uniquelocal, addresses and CIDR ranges', () => {
    expect(loadConfig({}).trustProxy).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: 'loopback, uniquelocal,10.1.2.3, 172.16.0.0/12,fd00::/8' }).trustProxy).toBe(
      'loopback,uniquelocal,10.1.2.3,172.16.0.0/12,fd00::/8',
    );
    expect(() => loadConfig({ TRUST_PROXY: 'loopback,everyone' })).toThrow(
      'TRUST_PROXY must be a comma list of loopback, linklocal, uniquelocal, IP addresses or CIDR ranges (got "everyone")',
    );
    expect(() => loadConfig({ TRUST_PROXY: '2' })).toThrow(/TRUST_PROXY must be/);
  });

  it('reports every problem at once', () => {
    try {
      loadConfig({ PORT: 'x', SETTLEMENT_MODE: 'evm' });
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems).toEqual([
        'PORT must be an integer between 0 and 65535 (got "x")',
        'PLATFORM_WALLET is required when NODE_ENV=production or SETTLEMENT_MODE is not local (the development default is public; npm run init:env writes your own)',
        'EVM_RPC_URL is required when SETTLEMENT_MODE=evm',
        'USDC_ADDRESS is required when SETTLEMENT_MODE=evm',
        'RELAYER_PRIVATE_KEY is required when SETTLEMENT_MODE=evm',
        'PLATFORM_SIGNING_SEED is required when NODE_ENV=production or SETTLEMENT_MODE is not local (the development default is public; npm run init:env writes your own)',
        'CHAIN_TOKEN_SEEDS must be 1-4 comma-separated Ed25519 seeds of 64 hex characters (the first signs; the rest stay valid)',
      ]);
    }
  });
});
