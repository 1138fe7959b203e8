import { startApi, ApiHarness } from '../support/api-harness';
import { registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { withClient } from '../support/test-db';
import { RELEVANCE_AGENTS, RELEVANCE_QUERIES } from '../fixtures/relevance-set';

/** precision@1 of /discover/recommend over the 20-agent, 15-query relevance set (README figure). */
describe('Recommendation relevance (e2e)', () => {
  let api: ApiHarness;
  const idToKey = new Map<string, string>();

  beforeAll(async () => {
    api = await startApi();
    for (const a of RELEVANCE_AGENTS) {
      const res = await registerAgent(api, newWallet(), {
        name: a.name,
        description: a.description,
        capabilities: a.capabilities.map((c) => ({
          ...c,
          pricing: { model: 'per-request', basePrice: '0.01', currency: 'USDC' },
        })),
      });
      expect(res.status).toBe(201);
      idToKey.set(res.body.data.id, a.key);
      await withClient(api.databaseUrl, (c) =>
        c.query('UPDATE agents SET reputation_score = $2 WHERE id = $1', [res.body.data.id, a.reputation]),
      );
    }
  });
  afterAll(async () => {
    await api.close();
  });

  it('has at least 20 agents and 15 queries', () => {
    expect(RELEVANCE_AGENTS.length).toBeGreaterThanOrEqual(20);
    expect(RELEVANCE_QUERIES.length).toBeGreaterThanOrEqual(15);
  });

  it('puts the right agent first for at least 80% of the queries', async () => {
    const misses: string[] = [];
    for (const { query, expected } of RELEVANCE_QUERIES) {
      const res = await api.request('GET', `/api/v1/discover/recommend?query=${encodeURIComponent(query)}`);
      expect(res.status).toBe(200);
      const top = res.body.data.recommendations[0];
      const got = top ? idToKey.get(top.agent.id) : undefined;
      if (got !== expected) misses.push(`"${query}": expected ${expected}, got ${got ?? 'nothing'}`);
    }
    const precision = (RELEVANCE_QUERIES.length - misses.length) / RELEVANCE_QUERIES.length;
    process.stdout.write(
      `recommend precision@1 = ${precision.toFixed(3)} (${RELEVANCE_QUERIES.length - misses.length}/${RELEVANCE_QUERIES.length})${misses.length ? `; misses: ${misses.join('; ')}` : ''}\n`,
    );
    expect(precision).toBeGreaterThanOrEqual(0.8);
  });

  it('puts the obviously right agent first for the plain requests named in the resolutions', async () => {
    for (const [query, key] of [
      ['translate this to French', 'translator'],
      ['summarize a PDF', 'pdf-summarizer'],
    ]) {
      const res = await api.request('GET', `/api/v1/discover/recommend?query=${encodeURIComponent(query)}`);
      expect(idToKey.get(res.body.data.recommendations[0].agent.id)).toBe(key);
    }
  });
});
