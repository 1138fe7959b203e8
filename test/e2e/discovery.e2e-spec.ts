import { startApi, ApiHarness } from '../support/api-harness';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet, walletHeaders } from '../support/wallets';
import { withClient } from '../support/test-db';

describe('Discovery API (e2e)', () => {
  let api: ApiHarness;
  const ids: Record<string, string> = {};

  async function seed(
    key: string,
    score: number,
    executions: number,
    caps: Record<string, unknown>[],
    status = 'active',
  ) {
    const res = await registerAgent(api, newWallet(), { name: `Agent ${key}`, capabilities: caps });
    expect(res.status).toBe(201);
    ids[key] = res.body.data.id;
    await withClient(api.databaseUrl, (c) =>
      c.query('UPDATE agents SET reputation_score = $2, execution_count = $3, status = $4 WHERE id = $1', [
        ids[key],
        score,
        executions,
        status,
      ]),
    );
  }

  const price = (basePrice: string) => ({ model: 'per-request', basePrice, currency: 'USDC' });

  beforeAll(async () => {
    api = await startApi();
    await seed('translatorTop', 90, 10, [
      capabilityPayload({ id: 'tr', name: 'Translate text', pricing: price('0.05') }),
    ]);
    await seed('translatorBusy', 70, 500, [
      capabilityPayload({ id: 'tr', name: 'Translation', pricing: price('0.02') }),
      capabilityPayload({ id: 'sum', name: 'Summarize', pricing: price('0.01') }),
    ]);
    await seed('translatorQuiet', 70, 5, [
      capabilityPayload({ id: 'tr', name: 'translate FAST', pricing: price('0.2') }),
    ]);
    await seed('atRisk', 35, 900, [capabilityPayload({ id: 'tr', name: 'Cheap translate', pricing: price('0.001') })]);
    await seed('critical', 10, 0, [capabilityPayload({ id: 'tr', name: 'Translator 100%_off', pricing: price('0') })]);
    await seed('summarizer', 60, 0, [capabilityPayload({ id: 'sum', name: 'Summarize PDF', pricing: price('0.03') })]);
    await seed(
      'inactive',
      99,
      0,
      [capabilityPayload({ id: 'tr', name: 'Translate', pricing: price('0.01') })],
      'inactive',
    );
    await seed(
      'suspended',
      99,
      0,
      [capabilityPayload({ id: 'tr', name: 'Translate', pricing: price('0.01') })],
      'suspended',
    );
  });
  afterAll(async () => {
    await api.close();
  });

  const discover = (query: string) => api.request('GET', `/api/v1/discover${query}`);
  const keysOf = (agents: { id: string }[]) => agents.map((a) => Object.keys(ids).find((k) => ids[k] === a.id));

  it('lists only active agents, ordered by reputation then executions, with At Risk and Critical last', async () => {
    const res = await discover('');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ total: 6, limit: 20, offset: 0 });
    expect(keysOf(res.body.data.agents)).toEqual([
      'translatorTop',
      'translatorBusy',
      'translatorQuiet',
      'summarizer',
      'atRisk',
      'critical',
    ]);
    const first = res.body.data.agents[0];
    expect(Object.keys(first).sort()).toEqual([
      'capabilities',
      'description',
      'health',
      'id',
      'name',
      'reputation_score',
      'status',
    ]);
    expect(first.capabilities).toEqual([
      { id: 'tr', name: 'Translate text', pricing: { model: 'per-request', basePrice: '0.050000', currency: 'USDC' } },
    ]);
    // Never probed here (no worker): listed, its health unknown.
    expect(first.health).toMatchObject({ status: 'unknown', uptime24h: null, uptime7d: null });
  });

  it('filters by capability name substring, case-insensitively, and returns only matching capabilities', async () => {
    const res = await discover('?capability=TRANSLAT');
    expect(keysOf(res.body.data.agents)).toEqual([
      'translatorTop',
      'translatorBusy',
      'translatorQuiet',
      'atRisk',
      'critical',
    ]);
    expect(res.body.data.total).toBe(5);
    const busy = res.body.data.agents.find((a: { id: string }) => a.id === ids.translatorBusy);
    expect(busy.capabilities.map((c: { id: string }) => c.id)).toEqual(['tr']);
  });

  it('treats LIKE wildcards in the capability filter literally', async () => {
    expect(keysOf((await discover('?capability=100%25_off')).body.data.agents)).toEqual(['critical']);
    expect(keysOf((await discover('?capability=%25')).body.data.agents)).toEqual(['critical']);
    expect(keysOf((await discover('?capability=_')).body.data.agents)).toEqual(['critical']);
    expect((await discover('?capability=Translat%25text')).body.data.total).toBe(0);
  });

  it('filters by maxPrice on basePrice and by minReputation', async () => {
    const cheap = await discover('?maxPrice=0.02');
    expect(keysOf(cheap.body.data.agents)).toEqual(['translatorBusy', 'atRisk', 'critical']);
    expect(cheap.body.data.agents[0].capabilities.map((c: { id: string }) => c.id)).toEqual(['tr', 'sum']);
    const combined = await discover('?capability=translat&maxPrice=0.05&minReputation=60');
    expect(keysOf(combined.body.data.agents)).toEqual(['translatorTop', 'translatorBusy']);
    expect((await discover('?minReputation=70.5')).body.data.total).toBe(1);
  });

  it('paginates with limit and offset and reports the total', async () => {
    const page = await discover('?limit=2&offset=2');
    expect(page.body.data).toMatchObject({ total: 6, limit: 2, offset: 2 });
    expect(keysOf(page.body.data.agents)).toEqual(['translatorQuiet', 'summarizer']);
    expect((await discover('?limit=100&offset=50')).body.data).toMatchObject({ agents: [], total: 6 });
  });

  it.each([
    ['limit over 100', '?limit=101', 'limit'],
    ['limit 0', '?limit=0', 'limit'],
    ['limit not a number', '?limit=ten', 'limit'],
    ['negative offset', '?offset=-1', 'offset'],
    ['maxPrice with 7 decimals', '?maxPrice=0.0000001', 'maxPrice'],
    ['maxPrice negative', '?maxPrice=-1', 'maxPrice'],
    ['minReputation over 100', '?minReputation=101', 'minReputation'],
    ['minReputation not a number', '?minReputation=high', 'minReputation'],
    ['an empty capability', '?capability=', 'capability'],
    ['an unknown parameter', '?sort=price', 'sort'],
  ])('rejects %s with VALIDATION_ERROR', async (_label, query, field) => {
    const res = await discover(query);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  describe('GET /api/v1/discover/recommend', () => {
    it('returns relevance-ranked recommendations with matched capabilities', async () => {
      const res = await api.request(
        'GET',
        `/api/v1/discover/recommend?query=${encodeURIComponent('summarize this PDF report')}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.data.query).toBe('summarize this PDF report');
      const recs = res.body.data.recommendations;
      expect(recs.length).toBeGreaterThan(0);
      expect(recs.length).toBeLessThanOrEqual(5);
      expect(recs[0].agent.id).toBe(ids.summarizer);
      expect(recs[0].matchedCapabilities).toEqual(['sum']);
      expect(Object.keys(recs[0].agent).sort()).toEqual(['capabilities', 'id', 'name']);
      for (const r of recs) {
        expect(r.relevance).toBeGreaterThanOrEqual(0);
        expect(r.relevance).toBeLessThanOrEqual(1);
      }
      const relevances = recs.map((r: { relevance: number }) => r.relevance);
      expect([...relevances].sort((a, b) => b - a)).toEqual(relevances);
      expect(recs.map((r: { agent: { id: string } }) => r.agent.id)).not.toContain(ids.inactive);
    });

    it('honours limit, and returns nothing for a query with no words', async () => {
      const one = await api.request('GET', '/api/v1/discover/recommend?query=translate&limit=1');
      expect(one.body.data.recommendations).toHaveLength(1);
      const none = await api.request('GET', `/api/v1/discover/recommend?query=${encodeURIComponent('?!')}`);
      expect(none.status).toBe(200);
      expect(none.body.data.recommendations).toEqual([]);
    });

    it.each([
      ['query missing', '', 'query'],
      ['query too long', `?query=${'a'.repeat(501)}`, 'query'],
      ['limit 0', '?query=translate&limit=0', 'limit'],
      ['limit over 50', '?query=translate&limit=51', 'limit'],
    ])('rejects %s with VALIDATION_ERROR', async (_label, query, field) => {
      const res = await api.request('GET', `/api/v1/discover/recommend${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error.details.errors.map((e: { field: string }) => e.field)).toContain(field);
    });
  });
});

describe('Discovery ranking rows and the saturating total (e2e)', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi({ DISCOVER_TOTAL_CAP: '3' });
  });
  afterAll(async () => {
    await api.close();
  });

  const discover = (query: string) => api.request('GET', `/api/v1/discover${query}`);

  it('counts exactly up to the cap, then saturates with totalExact false; pages past it still come', async () => {
    const mine: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await registerAgent(api, newWallet(), {
        name: `Cap ${i}`,
        capabilities: [capabilityPayload({ id: 'z', name: `Zeta sorter ${i}` })],
      });
      mine.push(res.body.data.id);
    }
    expect((await discover('?capability=zeta sorter 1')).body.data).toMatchObject({ total: 1, totalExact: true });
    const all = await discover('?capability=zeta');
    expect(all.body.data).toMatchObject({ total: 3, totalExact: false });
    expect(all.body.data.agents).toHaveLength(5);
    expect((await discover('?capability=zeta&limit=2&offset=4')).body.data.agents).toHaveLength(1);
  });

  it('follows an agent whose capabilities, status or score change (the ranking row is kept by the database)', async () => {
    const owner = newWallet();
    const res = await registerAgent(api, owner, {
      name: 'Renamer',
      capabilities: [capabilityPayload({ id: 'old', name: 'Quokka counting' })],
    });
    const id = res.body.data.id;
    expect((await discover('?capability=quokka')).body.data.agents.map((a: { id: string }) => a.id)).toEqual([id]);
    const patched = await api.request('PATCH', `/api/v1/agents/${id}`, {
      body: {
        capabilities: [
          capabilityPayload({
            id: 'new',
            name: 'Wombat herding',
            pricing: { model: 'per-request', basePrice: '0.000500', currency: 'USDC' },
          }),
        ],
      },
      headers: await walletHeaders(owner, id, `PATCH /api/v1/agents/${id}`),
    });
    expect(patched.status).toBe(200);
    expect((await discover('?capability=quokka')).body.data.total).toBe(0);
    const recommended = async (q: string) =>
      (
        await api.request('GET', `/api/v1/discover/recommend?query=${encodeURIComponent(q)}`)
      ).body.data.recommendations.map((r: { agent: { id: string } }) => r.agent.id);
    expect(await recommended('wombat herding')).toContain(id);
    expect(await recommended('quokka counting')).not.toContain(id);
    expect(
      (await discover('?capability=wombat&maxPrice=0.0005')).body.data.agents.map((a: { id: string }) => a.id),
    ).toEqual([id]);
    expect((await discover('?capability=wombat&maxPrice=0.0004')).body.data.total).toBe(0);
    await withClient(api.databaseUrl, (c) => c.query(`UPDATE agents SET reputation_score = 99 WHERE id = $1`, [id]));
    expect((await discover('')).body.data.agents[0].id).toBe(id);
    expect((await api.request('GET', '/api/v1/reputation/leaderboard?limit=1')).body.data.leaderboard[0]).toMatchObject(
      { agentId: id, score: 99 },
    );
    const off = await api.request('DELETE', `/api/v1/agents/${id}`, {
      headers: await walletHeaders(owner, id, `DELETE /api/v1/agents/${id}`),
    });
    expect(off.status).toBe(200);
    expect((await discover('?capability=wombat')).body.data.total).toBe(0);
  });
});
