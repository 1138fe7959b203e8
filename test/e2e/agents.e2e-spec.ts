import { Signature, Wallet } from 'ethers';
import { startApi, ApiHarness } from '../support/api-harness';
import { agentPayload, capabilityPayload, registerAgent } from '../support/factories';
import { newWallet, signAuth, walletHeaders } from '../support/wallets';
import { withClient } from '../support/test-db';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ADMIN = { 'X-Admin-Key': 'test-admin-key-0123456789' };

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

  describe('PATCH /api/v1/agents/:id', () => {
    let owner: Wallet;
    let agentId: string;

    beforeEach(async () => {
      owner = newWallet();
      agentId = (await register(owner)).id;
    });

    const patch = (id: string, body: unknown, headers: Record<string, string>) =>
      api.request('PATCH', `/api/v1/agents/${id}`, { body, headers });

    it('updates the given fields for the owner and moves updated_at', async () => {
      const before = (await api.request('GET', `/api/v1/agents/${agentId}`)).body.data;
      const res = await patch(
        agentId,
        {
          name: 'Renamed Agent',
          description: 'New description',
          metadata: { v: 2 },
          endpoints: { execution: 'https://renamed.agents.test/run' },
          capabilities: [
            capabilityPayload({ id: 'summarize', name: 'Summarize', description: 'Summaries of long text' }),
          ],
          chainSettings: { chain_enabled: false, chain_max_depth: 3 },
        },
        await walletHeaders(owner, agentId, `PATCH /api/v1/agents/${agentId}`),
      );
      expect(res.status).toBe(200);
      const a = res.body.data;
      expect(a).toMatchObject({
        id: agentId,
        name: 'Renamed Agent',
        description: 'New description',
        metadata: { v: 2 },
        endpoints: { execution: 'https://renamed.agents.test/run' },
      });
      expect(a.capabilities.map((c: any) => c.id)).toEqual(['summarize']);
      expect(a.chainSettings).toEqual({
        chain_enabled: false,
        chain_max_depth: 3,
        chain_allowed_callers: [],
        chain_blocked_callers: [],
      });
      expect(Date.parse(a.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
      expect(a.wallet).toBe(before.wallet);
      expect(a.reputation_score).toBe(50);
    });

    it('sets status inactive and back to active', async () => {
      expect(
        (
          await patch(
            agentId,
            { status: 'inactive' },
            await walletHeaders(owner, agentId, `PATCH /api/v1/agents/${agentId}`),
          )
        ).body.data.status,
      ).toBe('inactive');
      expect(
        (
          await patch(
            agentId,
            { status: 'active' },
            await walletHeaders(owner, agentId, `PATCH /api/v1/agents/${agentId}`, Date.now() + 1),
          )
        ).body.data.status,
      ).toBe('active');
    });

    it('merges chainSettings caller lists and rejects the agent itself or a depth over 5', async () => {
      const other = (await register(newWallet())).id;
      const ok = await patch(
        agentId,
        { chainSettings: { chain_blocked_callers: [other] } },
        await walletHeaders(owner, agentId, `PATCH /api/v1/agents/${agentId}`),
      );
      expect(ok.body.data.chainSettings).toEqual({
        chain_enabled: true,
        chain_max_depth: 5,
        chain_allowed_callers: [],
        chain_blocked_callers: [other],
      });
      const self = await patch(
        agentId,
        { chainSettings: { chain_allowed_callers: [agentId] } },
        await walletHeaders(owner, agentId, `PATCH /api/v1/agents/${agentId}`, Date.now() + 1),
      );
      expect(self.status).toBe(400);
      expect(self.body.error.details.errors[0].field).toBe('chainSettings.chain_allowed_callers');
      const deep = await patch(
        agentId,
        { chainSettings: { chain_max_depth: 6 } },
        await walletHeaders(owner, agentId, `PATCH /api/v1/agents/${agentId}`, Date.now() + 2),
      );
      expect(deep.status).toBe(400);
      expect(deep.body.error.details.errors[0].field).toBe('chainSettings.chain_max_depth');
    });

    it.each([
      ['id', { id: '8d0c6a4e-7f51-4c56-a3b2-6cdbd3f0a111' }],
      ['wallet', { wallet: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C' }],
      ['reputation_score', { reputation_score: 100 }],
      ['status suspended', { status: 'suspended' }],
      ['created_at', { created_at: '2020-01-01T00:00:00.000Z' }],
      ['an unknown chainSettings key', { chainSettings: { chain_budget: 5 } }],
      ['a null name', { name: null }],
      ['an empty body', {}],
    ])('rejects mass assignment / bad field: %s (400, nothing changes)', async (_label, body) => {
      const before = (await api.request('GET', `/api/v1/agents/${agentId}`)).body.data;
      const res = await patch(agentId, body, await walletHeaders(owner, agentId, `PATCH /api/v1/agents/${agentId}`));
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect((await api.request('GET', `/api/v1/agents/${agentId}`)).body.data).toEqual(before);
    });

    it('401s without credentials, with one header, or with a malformed signature', async () => {
      const ts = Date.now();
      const sig = await signAuth(owner, agentId, ts, `PATCH /api/v1/agents/${agentId}`);
      const cases: Record<string, string>[] = [
        {},
        { 'X-Agent-Wallet': owner.address },
        { 'X-Agent-Signature': sig },
        { 'X-Agent-Wallet': 'nope', 'X-Agent-Signature': sig },
        { 'X-Agent-Wallet': owner.address, 'X-Agent-Signature': 'garbage' },
        { 'X-Agent-Wallet': owner.address, 'X-Agent-Signature': sig.replace('agora-auth', 'other-auth') },
        { 'X-Agent-Wallet': owner.address, 'X-Agent-Signature': sig.slice(0, -2) },
        { 'X-Agent-Wallet': owner.address, 'X-Agent-Signature': sig.replace(`:${ts}:`, ':12ab:') },
        // A valid signature of the owner, but of the unbound message reads take: never a change.
        { 'X-Agent-Wallet': owner.address, 'X-Agent-Signature': await signAuth(owner, agentId, ts + 1) },
      ];
      for (const headers of cases) {
        const res = await patch(agentId, { name: 'Should Not Apply' }, headers);
        expect({ headers, status: res.status, code: res.body.error?.code }).toEqual({
          headers,
          status: 401,
          code: 'UNAUTHORIZED',
        });
      }
      expect((await api.request('GET', `/api/v1/agents/${agentId}`)).body.data.name).toBe('Polyglot Translator');
    });

    it('honours the 5-minute window on both sides', async () => {
      const now = Date.now();
      for (const ts of [now - 301_000, now + 301_000]) {
        const res = await patch(
          agentId,
          { name: 'Too Late' },
          await walletHeaders(owner, agentId, `PATCH /api/v1/agents/${agentId}`, ts),
        );
        expect(res.status).toBe(401);
        expect(res.body.error.message).toMatch(/window/);
      }
      const fresh = await patch(
        agentId,
        { name: 'Just In Time' },
        await walletHeaders(owner, agentId, `PATCH /api/v1/agents/${agentId}`, now - 290_000),
      );
      expect(fresh.status).toBe(200);
    });

    it('403s a signature from another wallet, a wallet header that is not the owner, or a signature for another agent', async () => {
      const stranger = newWallet();
      const strangerAgent = (await register(stranger)).id;
      const cases: Record<string, string>[] = [
        await walletHeaders(stranger, agentId, `PATCH /api/v1/agents/${agentId}`),
        {
          'X-Agent-Wallet': owner.address,
          'X-Agent-Signature': await signAuth(stranger, agentId, Date.now(), `PATCH /api/v1/agents/${agentId}`),
        },
        {
          'X-Agent-Wallet': stranger.address,
          'X-Agent-Signature': await signAuth(owner, agentId, Date.now(), `PATCH /api/v1/agents/${agentId}`),
        },
        await walletHeaders(stranger, strangerAgent, `PATCH /api/v1/agents/${agentId}`),
        await walletHeaders(owner, strangerAgent, `PATCH /api/v1/agents/${agentId}`),
        // The owner's signature for another request (the stranger agent's update, or a withdrawal).
        await walletHeaders(owner, agentId, `PATCH /api/v1/agents/${strangerAgent}`),
        await walletHeaders(owner, agentId, 'POST /api/v1/payments/withdraw'),
      ];
      for (const headers of cases) {
        const res = await patch(agentId, { name: 'Hijacked' }, headers);
        expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
      }
      expect((await api.request('GET', `/api/v1/agents/${agentId}`)).body.data.name).toBe('Polyglot Translator');
    });

    it('refuses a replayed signature, even when the first use is concurrent', async () => {
      const headers = await walletHeaders(owner, agentId, `PATCH /api/v1/agents/${agentId}`);
      expect((await patch(agentId, { name: 'First Use' }, headers)).status).toBe(200);
      const replay = await patch(agentId, { name: 'Replayed' }, headers);
      expect(replay.status).toBe(401);
      expect(replay.body.error.message).toMatch(/already been used/);

      const concurrent = await walletHeaders(owner, agentId, `PATCH /api/v1/agents/${agentId}`, Date.now() + 5);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => patch(agentId, { name: `Racer ${i}` }, concurrent)),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 401)).toHaveLength(9);
      const used = await withClient(api.databaseUrl, (c) =>
        c.query('SELECT count(*) FROM used_auth_messages WHERE agent_id = $1', [agentId]),
      );
      expect(Number(used.rows[0].count)).toBe(2);
    });

    it('does not spend a signature on a request rejected by validation', async () => {
      const headers = await walletHeaders(owner, agentId, `PATCH /api/v1/agents/${agentId}`);
      expect((await patch(agentId, { capabilities: [capabilityPayload(), capabilityPayload()] }, headers)).status).toBe(
        400,
      );
      expect((await patch(agentId, { name: 'Valid Now' }, headers)).status).toBe(200);
    });

    it('rejects the high-s twin of a valid signature', async () => {
      const ts = Date.now();
      const message = `agora-auth:${agentId}:${ts}:PATCH /api/v1/agents/${agentId}`;
      const sig = Signature.from(await owner.signMessage(message));
      const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
      const highS = '0x' + (n - BigInt(sig.s)).toString(16).padStart(64, '0');
      const twin = `${sig.r}${highS.slice(2)}${sig.v === 27 ? '1c' : '1b'}`;
      const res = await patch(
        agentId,
        { name: 'Twin' },
        { 'X-Agent-Wallet': owner.address, 'X-Agent-Signature': `${message}:sig:${twin}` },
      );
      expect(res.status).toBe(401);
      expect(res.body.error.message).toMatch(/high s/);
    });

    it('404s an agent that does not exist', async () => {
      const ghost = '0b9f7c1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b';
      const res = await patch(
        ghost,
        { name: 'Ghost Agent' },
        await walletHeaders(owner, ghost, `PATCH /api/v1/agents/${ghost}`),
      );
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('AGENT_NOT_FOUND');
    });

    it('rejects endpoints that fail the outbound guard', async () => {
      const res = await patch(
        agentId,
        { endpoints: { execution: 'https://[::ffff:a9fe:a9fe]/latest' } },
        await walletHeaders(owner, agentId, `PATCH /api/v1/agents/${agentId}`),
      );
      expect(res.status).toBe(400);
      expect(res.body.error.details.errors[0].field).toBe('endpoints.execution');
    });
  });

  describe('DELETE /api/v1/agents/:id', () => {
    it('deactivates (keeps the agent, status inactive) for the owner only, once per signature', async () => {
      const owner = newWallet();
      const { id } = await register(owner);
      const stranger = newWallet();
      expect((await api.request('DELETE', `/api/v1/agents/${id}`)).status).toBe(401);
      expect(
        (
          await api.request('DELETE', `/api/v1/agents/${id}`, {
            headers: await walletHeaders(stranger, id, `DELETE /api/v1/agents/${id}`),
          })
        ).status,
      ).toBe(403);
      const headers = await walletHeaders(owner, id, `DELETE /api/v1/agents/${id}`);
      const res = await api.request('DELETE', `/api/v1/agents/${id}`, { headers });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, data: { message: 'Agent deactivated', id } });
      expect((await api.request('GET', `/api/v1/agents/${id}`)).body.data.status).toBe('inactive');
      expect((await api.request('DELETE', `/api/v1/agents/${id}`, { headers })).status).toBe(401);
    });
  });

  describe('admin suspend / reinstate', () => {
    it('requires the admin key, suspends, blocks owner status changes, and reinstates', async () => {
      const owner = newWallet();
      const { id } = await register(owner);
      expect((await api.request('POST', `/api/v1/admin/agents/${id}/suspend`, { body: {} })).status).toBe(401);
      const wrong = await api.request('POST', `/api/v1/admin/agents/${id}/suspend`, {
        body: {},
        headers: { 'X-Admin-Key': 'wrong-key-wrong-key' },
      });
      expect(wrong.status).toBe(403);
      expect(wrong.body.error.code).toBe('FORBIDDEN');

      const suspended = await api.request('POST', `/api/v1/admin/agents/${id}/suspend`, {
        body: { reason: 'terms violation' },
        headers: ADMIN,
      });
      expect(suspended.status).toBe(200);
      expect(suspended.body.data.status).toBe('suspended');
      expect(
        (await api.request('POST', `/api/v1/admin/agents/${id}/suspend`, { body: {}, headers: ADMIN })).body.error.code,
      ).toBe('INVALID_STATE');

      const selfReactivate = await api.request('PATCH', `/api/v1/agents/${id}`, {
        body: { status: 'active' },
        headers: await walletHeaders(owner, id, `PATCH /api/v1/agents/${id}`),
      });
      expect(selfReactivate.status).toBe(409);
      expect(selfReactivate.body.error.code).toBe('INVALID_STATE');
      const selfDelete = await api.request('DELETE', `/api/v1/agents/${id}`, {
        headers: await walletHeaders(owner, id, `DELETE /api/v1/agents/${id}`, Date.now() + 1),
      });
      expect(selfDelete.status).toBe(409);
      const rename = await api.request('PATCH', `/api/v1/agents/${id}`, {
        body: { name: 'Still Editable' },
        headers: await walletHeaders(owner, id, `PATCH /api/v1/agents/${id}`, Date.now() + 2),
      });
      expect(rename.status).toBe(200);
      expect(rename.body.data.status).toBe('suspended');

      const reinstated = await api.request('POST', `/api/v1/admin/agents/${id}/reinstate`, { headers: ADMIN });
      expect(reinstated.status).toBe(200);
      expect(reinstated.body.data.status).toBe('active');
      expect(
        (await api.request('POST', `/api/v1/admin/agents/${id}/reinstate`, { headers: ADMIN })).body.error.code,
      ).toBe('INVALID_STATE');
      expect(
        (
          await api.request('POST', '/api/v1/admin/agents/0b9f7c1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b/reinstate', {
            headers: ADMIN,
          })
        ).status,
      ).toBe(404);
    });

    it('does not exist when no ADMIN_API_KEY is configured', async () => {
      const noAdmin = await startApi({ ADMIN_API_KEY: '' });
      try {
        const res = await noAdmin.request('POST', '/api/v1/admin/agents/0b9f7c1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b/suspend', {
          body: {},
          headers: ADMIN,
        });
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      } finally {
        await noAdmin.close();
      }
    });
  });
});
