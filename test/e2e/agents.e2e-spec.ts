import { Wallet } from 'ethers';
import { startApi, ApiHarness } from '../support/api-harness';
import { agentPayload, capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { withClient } from '../support/test-db';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('Agents API (e2e)', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api.close();
  });

  const countAgents = () =>
    withClient(api.databaseUrl, async (c) => Number((await c.query('SELECT count(*) FROM agents')).rows[0].count));

  async function register(wallet: Wallet, overrides: Record<string, unknown> = {}) {
    const res = await registerAgent(api, wallet, overrides);
    expect(res.status).toBe(201);
    return res.body.data as { id: string; [k: string]: any };
  }

  describe('POST /api/v1/agents', () => {
    it('registers an agent with the spec fields, reputation 50 and status active', async () => {
      const wallet = newWallet();
      const res = await registerAgent(api, wallet, { wallet: wallet.address.toLowerCase() });
      expect(res.status).toBe(201);
      expect(res.body.success).toBe(true);
      const a = res.body.data;
      expect(a.id).toMatch(UUID);
      expect(a.wallet).toBe(wallet.address); // stored checksummed
      expect(a.name).toBe('Polyglot Translator');
      expect(a.reputation_score).toBe(50);
      expect(a.status).toBe('active');
      expect(new Date(a.created_at).toISOString()).toBe(a.created_at);
      expect(a.endpoints).toEqual({
        execution: 'https://translator.agents.test/execute',
        health: 'https://translator.agents.test/health',
      });
      expect(a.capabilities).toEqual([
        expect.objectContaining({
          id: 'translate',
          name: 'Translate text',
          pricing: { model: 'per-request', basePrice: '0.010000', currency: 'USDC' },
        }),
      ]);
      expect(a.capabilities[0].inputSchema).toEqual(capabilityPayload().inputSchema);
      const rows = await withClient(api.databaseUrl, (c) =>
        c.query('SELECT base_price, pricing_model FROM agent_capabilities WHERE agent_id = $1', [a.id]),
      );
      expect(rows.rows).toEqual([{ base_price: '10000', pricing_model: 'per-request' }]);
    });

    it('keeps variable pricing with its maxPrice', async () => {
      const a = await register(newWallet(), {
        capabilities: [
          capabilityPayload({
            id: 'chat',
            pricing: { model: 'per-token', basePrice: '0.002', currency: 'USDT', maxPrice: '0.5' },
          }),
          capabilityPayload({
            id: 'render',
            pricing: { model: 'dynamic', basePrice: '0', currency: 'DAI', maxPrice: '2' },
          }),
        ],
      });
      expect(a.capabilities.map((c: any) => c.pricing)).toEqual([
        { model: 'per-token', basePrice: '0.002000', currency: 'USDT', maxPrice: '0.500000' },
        { model: 'dynamic', basePrice: '0.000000', currency: 'DAI', maxPrice: '2.000000' },
      ]);
    });

    const cap = (o: Record<string, unknown>) => ({ capabilities: [capabilityPayload(o)] });
    const pricing = (o: Record<string, unknown>) =>
      cap({ pricing: { model: 'per-request', basePrice: '0.01', currency: 'USDC', ...o } });
    const tooMany = Array.from({ length: 51 }, (_, i) => capabilityPayload({ id: `c${i}` }));
    const invalid: [string, Record<string, unknown>, string][] = [
      ['wallet missing', { wallet: undefined }, 'wallet'],
      ['wallet too short', { wallet: '0x1234' }, 'wallet'],
      ['wallet not hex', { wallet: '0xZZ9693Bc6afc0C5328bA36FaF03C514EF312287C' }, 'wallet'],
      ['wallet with a bad checksum', { wallet: '0x209693bC6afc0C5328bA36FaF03C514EF312287C' }, 'wallet'],
      ['name missing', { name: undefined }, 'name'],
      ['name too short', { name: 'ab' }, 'name'],
      ['name too long', { name: 'x'.repeat(101) }, 'name'],
      ['name blank', { name: '     ' }, 'name'],
      ['name not a string', { name: 12345 }, 'name'],
      ['description too long', { description: 'd'.repeat(1001) }, 'description'],
      ['capabilities missing', { capabilities: undefined }, 'capabilities'],
      ['capabilities empty', { capabilities: [] }, 'capabilities'],
      ['capabilities not an array', { capabilities: { id: 'x' } }, 'capabilities'],
      ['more than 50 capabilities', { capabilities: tooMany }, 'capabilities'],
      ['capability id missing', cap({ id: undefined }), 'capabilities.0.id'],
      ['capability id with spaces', cap({ id: 'has space' }), 'capabilities.0.id'],
      ['capability name missing', cap({ name: undefined }), 'capabilities.0.name'],
      ['capability description missing', cap({ description: undefined }), 'capabilities.0.description'],
      ['duplicate capability ids', { capabilities: [capabilityPayload(), capabilityPayload()] }, 'capabilities.1.id'],
      ['pricing missing', cap({ pricing: undefined }), 'capabilities.0.pricing'],
      ['pricing model unknown', pricing({ model: 'per-hour' }), 'capabilities.0.pricing.model'],
      ['basePrice with 7 decimals', pricing({ basePrice: '0.0000001' }), 'capabilities.0.pricing.basePrice'],
      ['basePrice negative', pricing({ basePrice: '-1' }), 'capabilities.0.pricing.basePrice'],
      ['basePrice exponent', pricing({ basePrice: '1e3' }), 'capabilities.0.pricing.basePrice'],
      ['basePrice with spaces', pricing({ basePrice: ' 1' }), 'capabilities.0.pricing.basePrice'],
      ['basePrice as a number', pricing({ basePrice: 0.01 }), 'capabilities.0.pricing.basePrice'],
      ['currency unknown', pricing({ currency: 'EUR' }), 'capabilities.0.pricing.currency'],
      ['maxPrice on per-request', pricing({ maxPrice: '1' }), 'capabilities.0.pricing.maxPrice'],
      ['per-token without maxPrice', pricing({ model: 'per-token' }), 'capabilities.0.pricing.maxPrice'],
      [
        'a zero maxPrice',
        pricing({ model: 'dynamic', basePrice: '2', maxPrice: '0' }),
        'capabilities.0.pricing.maxPrice',
      ],
      ['inputSchema not a JSON Schema', cap({ inputSchema: { type: 'nonsense' } }), 'capabilities.0.inputSchema'],
      ['inputSchema an array', cap({ inputSchema: [1, 2] }), 'capabilities.0.inputSchema'],
      ['outputSchema not a JSON Schema', cap({ outputSchema: { properties: 5 } }), 'capabilities.0.outputSchema'],
      ['endpoints missing', { endpoints: undefined }, 'endpoints'],
      ['endpoints.execution missing', { endpoints: { health: 'https://a.agents.test/h' } }, 'endpoints.execution'],
      ['endpoints.execution not a URL', { endpoints: { execution: 'not a url' } }, 'endpoints.execution'],
      [
        'endpoints.execution over http',
        { endpoints: { execution: 'http://a.agents.test/run' } },
        'endpoints.execution',
      ],
      [
        'endpoints.execution with credentials',
        { endpoints: { execution: 'https://u:p@a.agents.test/run' } },
        'endpoints.execution',
      ],
      [
        'endpoints.health on loopback',
        { endpoints: { execution: 'https://a.agents.test/run', health: 'https://127.0.0.1/h' } },
        'endpoints.health',
      ],
      [
        'endpoints.health on another host (a page that always answers would keep a dead agent listed)',
        { endpoints: { execution: 'https://a.agents.test/run', health: 'https://status.example.com/ok' } },
        'endpoints.health',
      ],
      ['endpoints.execution on loopback', { endpoints: { execution: 'https://127.0.0.1/run' } }, 'endpoints.execution'],
      [
        'endpoints.execution on decimal loopback',
        { endpoints: { execution: 'https://2130706433/run' } },
        'endpoints.execution',
      ],
      [
        'endpoints.execution on IPv4-mapped IPv6 loopback',
        { endpoints: { execution: 'https://[::ffff:127.0.0.1]/run' } },
        'endpoints.execution',
      ],
      [
        'endpoints.execution on cloud metadata',
        { endpoints: { execution: 'https://169.254.169.254/latest/meta-data' } },
        'endpoints.execution',
      ],
      [
        'endpoints.execution on a private network',
        { endpoints: { execution: 'https://10.1.2.3/run' } },
        'endpoints.execution',
      ],
      [
        'endpoints.execution on localhost',
        { endpoints: { execution: 'https://localhost:8443/run' } },
        'endpoints.execution',
      ],
      ['metadata an array', { metadata: ['a'] }, 'metadata'],
      ['id is not assignable', { id: '8d0c6a4e-7f51-4c56-a3b2-6cdbd3f0a111' }, 'id'],
      ['reputation_score is not assignable', { reputation_score: 100 }, 'reputation_score'],
      ['status is not assignable', { status: 'suspended' }, 'status'],
    ];

    it.each(invalid)('rejects %s with VALIDATION_ERROR and creates nothing', async (_label, overrides, field) => {
      const before = await countAgents();
      const res = await api.request('POST', '/api/v1/agents', { body: agentPayload(newWallet(), overrides) });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect(await countAgents()).toBe(before);
    });

    it('rejects a body that is not a JSON object', async () => {
      const res = await api.request('POST', '/api/v1/agents', { body: [agentPayload(newWallet())] });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    });

    it('rejects malformed JSON in the envelope', async () => {
      const res = await api.request('POST', '/api/v1/agents', {
        raw: '{"wallet":',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        error: expect.objectContaining({ code: 'VALIDATION_ERROR', message: 'Request body is not valid JSON' }),
      });
    });

    it('answers 413 PAYLOAD_TOO_LARGE for a body over 1 MiB', async () => {
      const before = await countAgents();
      const res = await api.request('POST', '/api/v1/agents', {
        body: agentPayload(newWallet(), { metadata: { blob: 'x'.repeat(1_100_000) } }),
      });
      expect(res.status).toBe(413);
      expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
      expect(await countAgents()).toBe(before);
    });

    it('accepts a body just under 1 MiB', async () => {
      const res = await registerAgent(api, newWallet(), { metadata: { blob: 'x'.repeat(1_000_000) } });
      expect(res.status).toBe(201);
    });
  });

  describe('GET /api/v1/agents/:id', () => {
    it('returns the agent with updated_at and chainSettings', async () => {
      const a = await register(newWallet());
      const res = await api.request('GET', `/api/v1/agents/${a.id}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        ...a,
        updated_at: expect.any(String),
        chainSettings: {
          chain_enabled: true,
          chain_max_depth: 5,
          chain_allowed_callers: [],
          chain_blocked_callers: [],
        },
      });
      expect(res.headers.get('x-request-id')).toBeTruthy();
    });

    it('echoes a sane X-Request-ID', async () => {
      const a = await register(newWallet());
      const res = await api.request('GET', `/api/v1/agents/${a.id}`, { headers: { 'X-Request-ID': 'trace-123' } });
      expect(res.headers.get('x-request-id')).toBe('trace-123');
    });

    it('404s an unknown agent and 400s a non-UUID id', async () => {
      const missing = await api.request('GET', '/api/v1/agents/0b9f7c1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b');
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('AGENT_NOT_FOUND');
      const bad = await api.request('GET', '/api/v1/agents/not-a-uuid');
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    });
  });
});
