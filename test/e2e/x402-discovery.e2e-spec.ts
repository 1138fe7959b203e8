import { HTTPFacilitatorClient } from '@x402/core/server';
import { validateDiscoveryExtension, withBazaar } from '@x402/extensions/bazaar';
import { Wallet } from 'ethers';
import { DataSource as DataSourceToken } from 'typeorm';
import { startApi, ApiHarness } from '../support/api-harness';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';

const CAP_URL = /\/api\/v1\/agents\/[0-9a-f-]{36}\/capabilities\/[a-z-]+\/execute$/;

/** Issue 32: the facilitator discovery API at <base>/x402, read by the Bazaar client of @x402/extensions unchanged. */
describe('x402 discovery API (e2e)', () => {
  let api: ApiHarness;
  let bazaar: ReturnType<typeof withBazaar<HTTPFacilitatorClient>>['extensions']['bazaar'];
  const ids: Record<string, string> = {};

  const register = async (name: string, caps: Record<string, unknown>[], metadata?: Record<string, unknown>) => {
    const res = await registerAgent(api, newWallet(), {
      name,
      endpoints: { execution: 'https://agent.example.com/run' },
      capabilities: caps,
      ...(metadata ? { metadata } : {}),
    });
    expect(res.status).toBe(201);
    ids[name] = res.body.data.id;
  };

  beforeAll(async () => {
    api = await startApi();
    bazaar = withBazaar(new HTTPFacilitatorClient({ url: `${api.baseUrl}/x402` })).extensions.bazaar;
    await register('Polyglot', [
      capabilityPayload({ id: 'translate', name: 'Translate text', description: 'Translates text into French' }),
      capabilityPayload({ id: 'detect-language', name: 'Detect language', description: 'Says which language' }),
    ]);
    await register(
      'Weatherman',
      [capabilityPayload({ id: 'forecast', name: 'Weather forecast', description: 'Forecasts the weather' })],
      { tags: ['weather', 'climate'] },
    );
    await register('Summarizer', [
      capabilityPayload({ id: 'summarize', name: 'Summarize documents', description: 'Summarizes long reports' }),
    ]);
  });
  afterAll(() => api.close());

  it('lists every capability of every active agent as a resource, with the offer of its 402', async () => {
    const list = await bazaar.listResources({ type: 'http', limit: 100 });
    expect(list.x402Version).toBe(2);
    expect(list.pagination).toEqual({ limit: 100, offset: 0, total: 4 });
    expect(list.items.map((i) => i.resource).sort()).toEqual(
      [
        `/agents/${ids.Polyglot}/capabilities/translate/execute`,
        `/agents/${ids.Polyglot}/capabilities/detect-language/execute`,
        `/agents/${ids.Weatherman}/capabilities/forecast/execute`,
        `/agents/${ids.Summarizer}/capabilities/summarize/execute`,
      ]
        .map((p) => `${api.config.publicBaseUrl}/api/v1${p}`)
        .sort(),
    );
    for (const item of list.items) {
      expect(item.resource).toMatch(CAP_URL);
      expect(item.type).toBe('http');
      expect(new Date(item.lastUpdated).toISOString()).toBe(item.lastUpdated);
      expect(validateDiscoveryExtension(item.extensions!.bazaar as never)).toEqual({ valid: true });
    }
    // The same offer as the resource's 402 (accepts, resource metadata and extensions).
    const forecast = list.items.find((i) => i.resource.endsWith('/forecast/execute'))!;
    expect(forecast.serviceName).toBe('Weatherman');
    expect(forecast.tags).toEqual(['forecast', 'weather', 'climate']);
    const res = await api.request('POST', new URL(forecast.resource).pathname, { body: { text: 'x' } });
    expect(res.status).toBe(402);
    const offer = JSON.parse(Buffer.from(res.headers.get('payment-required')!, 'base64').toString());
    expect(forecast.accepts).toEqual(offer.accepts);
    // A 402 adds its signed offers (fresh per 402): the listing has every other extension.
    const { 'offer-receipt': signed, ...unsigned } = offer.extensions;
    expect(forecast.extensions).toEqual(unsigned);
    expect(signed.info.offers).toHaveLength(offer.accepts.length);
    expect(offer.resource).toEqual({
      url: forecast.resource,
      description: forecast.description,
      mimeType: forecast.mimeType,
      serviceName: forecast.serviceName,
      tags: forecast.tags,
    });
  });

  it('pages by offset with a stable order, and filters as the facilitator API does', async () => {
    const all = (await bazaar.listResources({ limit: 100 })).items.map((i) => i.resource);
    const pages = [];
    for (let offset = 0; offset < 4; offset += 3) {
      const page = await bazaar.listResources({ limit: 3, offset });
      expect(page.pagination).toEqual({ limit: 3, offset, total: 4 });
      pages.push(...page.items.map((i) => i.resource));
    }
    expect(pages).toEqual(all);
    // Every window, starting inside an agent's capabilities or not, is the same slice of the whole.
    for (let offset = 0; offset <= 5; offset++)
      for (let limit = 1; limit <= 3; limit++)
        expect((await bazaar.listResources({ limit, offset })).items.map((i) => i.resource)).toEqual(
          all.slice(offset, offset + limit),
        );
    const payTo = api.config.platformWallet!;
    const network = (await bazaar.listResources({ limit: 1 })).items[0].accepts[0].network;
    for (const params of [{ payTo: payTo.toLowerCase() }, { scheme: 'exact' }, { network }, { extensions: 'bazaar' }])
      expect((await bazaar.listResources(params)).pagination.total).toBe(4);
    for (const params of [
      { type: 'mcp' },
      { payTo: Wallet.createRandom().address },
      { scheme: 'upto' },
      { network: 'eip155:1' },
      { extensions: 'bazaar,sign-in-with-x' },
    ]) {
      const page = await bazaar.listResources(params);
      expect(page.items).toEqual([]);
      expect(page.pagination.total).toBe(0);
    }
  });

  it('leaves out agents that are no longer active', async () => {
    await api.app.get(DataSourceToken).query(`UPDATE agents SET status = 'inactive' WHERE id = $1`, [ids.Summarizer]);
    const list = await bazaar.listResources({ limit: 100 });
    expect(list.items.some((i) => i.resource.includes(ids.Summarizer))).toBe(false);
    const found = await bazaar.search({ query: 'summarize long reports' });
    expect(found.resources).toEqual([]);
    await api.app.get(DataSourceToken).query(`UPDATE agents SET status = 'active' WHERE id = $1`, [ids.Summarizer]);
  });

  it('leaves out an agent failing every probe for HEALTH_HIDE_AFTER_S, and lists it again once it answers', async () => {
    const ds = api.app.get(DataSourceToken);
    const failing = (since: string | null) =>
      ds.query(`UPDATE agent_health SET status = $2, failing_since = now() - $3::interval WHERE agent_id = $1`, [
        ids.Summarizer,
        since ? 'down' : 'up',
        since ?? '0 seconds',
      ]);
    const listed = async () =>
      (await bazaar.listResources({ limit: 100 })).items.some((i) => i.resource.includes(ids.Summarizer));
    const found = async () => (await bazaar.search({ query: 'summarize long reports' })).resources.length > 0;
    // Failing for less than the hour: still listed.
    await failing('50 minutes');
    expect([await listed(), await found()]).toEqual([true, true]);
    await failing('61 minutes');
    expect([await listed(), await found()]).toEqual([false, false]);
    await ds.query(`UPDATE agent_health SET status = 'up', failing_since = NULL WHERE agent_id = $1`, [ids.Summarizer]);
    expect([await listed(), await found()]).toEqual([true, true]);
  });

  it("follows a change of the agent's tags in its listings and its 402 (config_version moves)", async () => {
    const ds = api.app.get(DataSourceToken);
    const path = `/api/v1/agents/${ids.Weatherman}/capabilities/forecast/execute`;
    const tagsOf402 = async () =>
      JSON.parse(
        Buffer.from(
          (await api.request('POST', path, { body: { text: 'x' } })).headers.get('payment-required')!,
          'base64',
        ).toString(),
      ).resource.tags;
    expect(await tagsOf402()).toEqual(['forecast', 'weather', 'climate']);
    const [before] = await ds.query(`SELECT config_version AS v FROM agents WHERE id = $1`, [ids.Weatherman]);
    await ds.query(`UPDATE agents SET metadata = jsonb_set(metadata, '{tags}', '["rain"]') WHERE id = $1`, [
      ids.Weatherman,
    ]);
    const [after] = await ds.query(`SELECT config_version AS v FROM agents WHERE id = $1`, [ids.Weatherman]);
    expect(BigInt(after.v)).toBe(BigInt(before.v) + 1n);
    expect(await tagsOf402()).toEqual(['forecast', 'rain']);
    const listed = (await bazaar.listResources({ limit: 100 })).items.find((i) => i.resource.endsWith(path))!;
    expect(listed.tags).toEqual(['forecast', 'rain']);
    await ds.query(
      `UPDATE agents SET metadata = jsonb_set(metadata, '{tags}', '["weather", "climate"]') WHERE id = $1`,
      [ids.Weatherman],
    );
  });

  it('searches with the recommend engine: the matched capabilities first, paged by cursor', async () => {
    const found = await bazaar.search({ query: 'translate text into french' });
    expect(found.x402Version).toBe(2);
    expect(found.resources[0].resource).toMatch(/\/translate\/execute$/);
    expect(found.resources[0].resource).toContain(ids.Polyglot);
    expect(found.partialResults).toBe(false);

    const weather = await bazaar.search({ query: 'weather forecast', limit: 1 });
    expect(weather.resources.map((r) => r.serviceName)).toEqual(['Weatherman']);
    expect(weather.pagination).toEqual({ limit: 1, cursor: null });

    // An agent matched by its name lists all its capabilities, a page at a time.
    const first = await bazaar.search({ query: 'polyglot', limit: 1 });
    expect(first.resources).toHaveLength(1);
    expect(first.pagination!.cursor).toEqual(expect.any(String));
    const second = await bazaar.search({ query: 'polyglot', limit: 1, cursor: first.pagination!.cursor! });
    expect(second.resources).toHaveLength(1);
    expect(second.resources[0].resource).not.toBe(first.resources[0].resource);
    expect(second.pagination!.cursor).toBeNull();
  });

  it('refuses bad input in the error envelope, and a forged cursor', async () => {
    const bad = [
      '/x402/discovery/resources?limit=0',
      '/x402/discovery/resources?limit=101',
      '/x402/discovery/resources?offset=-1',
      '/x402/discovery/resources?type=h%00ttp',
      '/x402/discovery/resources?unknown=1',
      '/x402/discovery/search',
      '/x402/discovery/search?query=a%00b',
      '/x402/discovery/search?query=ok&query=twice',
      `/x402/discovery/search?query=${'a'.repeat(501)}`,
      '/x402/discovery/search?query=x&cursor=%2F%2F',
      `/x402/discovery/search?query=x&cursor=${Buffer.from('o:99999').toString('base64url')}`,
      `/x402/discovery/search?query=x&cursor=${Buffer.from('{"o":1}').toString('base64url')}`,
    ];
    for (const path of bad) {
      const res = await api.request('GET', path);
      expect({ path, status: res.status, code: res.body?.error?.code }).toEqual({
        path,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
    await expect(bazaar.listResources({ limit: 1000 })).rejects.toThrow(/\(400\)/);
  });

  it('is served outside /api/v1 only, and documented in the OpenAPI document', async () => {
    expect((await api.request('GET', '/api/v1/x402/discovery/resources')).status).toBe(404);
    const doc = (await api.request('GET', '/api/docs-json')).body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/x402/discovery/resources', '/x402/discovery/search']),
    );
  });
});
