import { Signature, Wallet } from 'ethers';
import { startApi, ApiHarness } from '../support/api-harness';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet, signAuth, walletHeaders } from '../support/wallets';
import { withClient } from '../support/test-db';

describe('Agents API (e2e)', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api.close();
  });

  async function register(wallet: Wallet, overrides: Record<string, unknown> = {}) {
    const res = await registerAgent(api, wallet, overrides);
    expect(res.status).toBe(201);
    return res.body.data as { id: string; [k: string]: any };
  }

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
});
