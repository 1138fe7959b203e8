/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: discovery (spec §4 "Discovery", resolutions §8): GET /discover with its filters and pagination, and
 * GET /discover/recommend.
 */
import { api, expectStatus } from './support/http';
import { capability, micro, registerAgent, SIX_DECIMALS, UUID } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { boundAgentSignature, newWallet } from './support/wallets';

let m: Marketplace;
let translator: string, summarizer: string, captioner: string, inactive: string;
const FILLERS = 20;
const ACTIVE = FILLERS + 3;
const pricing = (basePrice: string) => ({ model: 'per-request', basePrice, currency: 'USDC' });

async function register(name: string, description: string, cap: Record<string, unknown>): Promise<string> {
  return (await registerAgent(m, newWallet(), { name, description, capabilities: [capability(cap)] })).id;
}

beforeAll(async () => {
  m = await startMarketplace();
  translator = await register('French Translator', 'Translates text between English and French', {
    id: 'translate',
    name: 'Translate Text',
    description: 'Translate a text into French or into English',
    pricing: pricing('0.010000'),
  });
  summarizer = await register('Document Summarizer', 'Summarizes long documents and PDF files', {
    id: 'summarize',
    name: 'Summarize Document',
    description: 'Summarize a PDF or a text document in a few sentences',
    pricing: pricing('0.050000'),
  });
  captioner = await register('Image Captioner', 'Describes what a picture shows', {
    id: 'caption',
    name: 'Caption Image',
    description: 'Write a caption for an image',
    pricing: pricing('0.500000'),
  });
  const owner = newWallet();
  inactive = (
    await registerAgent(m, owner, {
      name: 'Retired Translator',
      capabilities: [capability({ id: 'translate', name: 'Translate Text' })],
    })
  ).id;
  const path = `/api/v1/agents/${inactive}`;
  const headers = {
    'X-Agent-Wallet': owner.address,
    'X-Agent-Signature': await boundAgentSignature(owner, inactive, 'DELETE', path),
  };
  expectStatus(await api(m, 'DELETE', path, { headers }), 200, 'DELETE agent:');
  for (let i = 0; i < FILLERS; i++) {
    await register(`Text Utility ${i}`, 'A text utility tool', {
      id: 'tool',
      name: 'Text Tool',
      pricing: pricing('0.001000'),
    });
  }
}, 120_000);
afterAll(() => m?.stop());

async function discover(query: string) {
  const r = await api(m, 'GET', `/api/v1/discover${query}`);
  expectStatus(r, 200, `GET /discover${query}:`);
  return r.body.data;
}

async function recommend(query: string, extra = '') {
  const r = await api(m, 'GET', `/api/v1/discover/recommend?query=${encodeURIComponent(query)}${extra}`);
  expectStatus(r, 200, `recommend "${query}":`);
  return r.body.data;
}

describe('Discovery', () => {
  it('lists active agents only, 20 by default, with total, limit and offset', async () => {
    const d = await discover('');
    expect(d).toMatchObject({ total: ACTIVE, limit: 20, offset: 0 });
    expect(d.agents).toHaveLength(20);
    const all = await discover('?limit=100');
    expect(all.agents).toHaveLength(ACTIVE);
    expect(all.agents.map((a: { id: string }) => a.id)).not.toContain(inactive);
  });

  it('gives each agent id, name, description, capabilities[] {id, name, pricing}, reputation_score, status', async () => {
    const d = await discover('?limit=100');
    for (const a of d.agents) {
      expect(a).toMatchObject({ id: expect.stringMatching(UUID), name: expect.any(String), status: 'active' });
      expect(a).toHaveProperty('description');
      expect(Number.isInteger(a.reputation_score)).toBe(true);
      for (const c of a.capabilities) expect(c).toMatchObject({ id: expect.any(String), name: expect.any(String) });
      for (const c of a.capabilities) expect(c.pricing).toMatchObject({ model: 'per-request', currency: 'USDC' });
    }
    const t = d.agents.find((a: { id: string }) => a.id === translator);
    expect(t).toMatchObject({ name: 'French Translator', reputation_score: 50 });
    expect(t.capabilities[0]).toMatchObject({ id: 'translate', name: 'Translate Text' });
    expect(micro(t.capabilities[0].pricing.basePrice)).toBe(10_000n);
  });

  it.each(['TRANSLATE', 'translate text', 'rAnSlAt'])(
    'filters capability=%s as a case-insensitive substring of the capability name',
    async (needle) => {
      const d = await discover(`?capability=${encodeURIComponent(needle)}`);
      expect(d.agents.map((a: { id: string }) => a.id)).toEqual([translator]);
      expect(d.total).toBe(1);
    },
  );

  it('filters maxPrice on the price per request', async () => {
    const d = await discover('?maxPrice=0.05&limit=100');
    const ids = d.agents.map((a: { id: string }) => a.id);
    expect(ids).toEqual(expect.arrayContaining([translator, summarizer]));
    expect(ids).not.toContain(captioner);
    expect(d.total).toBe(ACTIVE - 1);
    for (const a of d.agents)
      for (const c of a.capabilities) expect(micro(c.pricing.basePrice)).toBeLessThanOrEqual(50_000n);
  });

  it('filters minReputation on the score (every new agent has 50)', async () => {
    expect((await discover('?minReputation=50')).total).toBe(ACTIVE);
    const above = await discover('?minReputation=51');
    expect([above.total, above.agents.length]).toEqual([0, 0]);
  });

  it('takes limit up to 100 and refuses more with 400', async () => {
    expect((await discover('?limit=100')).limit).toBe(100);
    const r = await api(m, 'GET', '/api/v1/discover?limit=101');
    expect([r.status, r.body.error?.code]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('pages with offset: the pages together list every active agent once', async () => {
    const pages = await Promise.all([0, 10, 20].map((o) => discover(`?limit=10&offset=${o}`)));
    expect(pages.map((p) => [p.offset, p.agents.length])).toEqual([
      [0, 10],
      [10, 10],
      [20, ACTIVE - 20],
    ]);
    const ids = pages.flatMap((p) => p.agents.map((a: { id: string }) => a.id));
    expect(new Set(ids).size).toBe(ACTIVE);
  });

  it('recommends the translator first for "translate this to French"', async () => {
    const d = await recommend('translate this to French');
    expect(d.query).toBe('translate this to French');
    expect(d.recommendations[0].agent).toMatchObject({ id: translator, name: 'French Translator' });
    expect(d.recommendations[0].agent.capabilities.map((c: { id: string }) => c.id)).toContain('translate');
    expect(d.recommendations[0].matchedCapabilities).toContain('translate');
    expect(d.recommendations.map((r: { agent: { id: string } }) => r.agent.id)).not.toContain(inactive);
  });

  it('recommends the summarizer first for "summarize a PDF"', async () => {
    const d = await recommend('summarize a PDF');
    expect(d.recommendations[0].agent.id).toBe(summarizer);
  });

  it('gives each recommendation a relevance between 0 and 1, best first', async () => {
    const d = await recommend('translate or summarize a text document');
    const relevances = d.recommendations.map((r: { relevance: number }) => r.relevance);
    expect(relevances.length).toBeGreaterThan(0);
    for (const r of relevances) expect(r >= 0 && r <= 1).toBe(true);
    expect([...relevances].sort((x, y) => y - x)).toEqual(relevances);
    for (const r of d.recommendations) expect(Array.isArray(r.matchedCapabilities)).toBe(true);
  });

  it('recommends 5 agents by default and at most limit', async () => {
    expect((await recommend('text utility tool')).recommendations).toHaveLength(5);
    expect((await recommend('text utility tool', '&limit=2')).recommendations).toHaveLength(2);
  });

  it('shows prices as six-decimal strings', async () => {
    const d = await discover('?limit=100');
    for (const a of d.agents) for (const c of a.capabilities) expect(c.pricing.basePrice).toMatch(SIX_DECIMALS);
  });
});
