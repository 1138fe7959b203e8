/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: reading chains (spec §2 "Chain status resource", §4 "Execution chains", resolutions §5): GET /chains/:id by
 * chain id and by root transaction id, free and with its transaction ids; GET /chains/:id/cost; budget-check.
 */
import { callsOnce, ChainAgent, chainAgent, openChain } from './support/chains';
import { api, expectStatus, PaidReply, poll, Reply } from './support/http';
import { ISO_8601, micro, SIX_DECIMALS } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { newWallet } from './support/wallets';

let m: Marketplace;
let root: ChainAgent, leaf: ChainAgent;
let rootReply: PaidReply;
let chainId: string;
/** The chain once it has ended (nothing runs and its tokens have expired: 2 s here). */
let ended: Reply;

beforeAll(async () => {
  m = await startMarketplace({ env: { CHAIN_TOKEN_TTL_S: '2' } });
  [root, leaf] = await Promise.all([chainAgent(m, '0.010000'), chainAgent(m, '0.020000')]);
  root.server.handler = callsOnce(m, () => leaf.id, []);
  rootReply = await openChain(m, newWallet(), root, { budget: '1.00', maxDepth: 2 });
  expectStatus(rootReply, 200, 'chain root:');
  chainId = rootReply.body.data.chain.chainId;
  ended = await poll(
    () => api(m, 'GET', `/api/v1/chains/${chainId}`),
    (r) => r.status === 200 && r.body.data.completedAt != null,
    'the chain to end',
  );
}, 120_000);
afterAll(async () => {
  await Promise.all([root, leaf].map((a) => a?.server.close()));
  await m?.stop();
});

const NODE_FIELDS = ['agentId', 'agentName', 'capabilityId', 'status', 'cost', 'executionTimeMs', 'startedAt'];

describe('Chain status resource', () => {
  it('shows status, totalCost, totalExecutionTimeMs, maxDepthReached, nodeCount, startedAt and completedAt', () => {
    const d = ended.body.data;
    expect(d).toMatchObject({ status: 'completed', totalCost: '0.032000', maxDepthReached: 1, nodeCount: 2 });
    expect(Number.isInteger(d.totalExecutionTimeMs)).toBe(true);
    expect(d.startedAt).toMatch(ISO_8601);
    expect(d.completedAt).toMatch(ISO_8601);
  });

  it('shows the trace tree: each Chain node with its fields, children empty for leaves', () => {
    const tree = ended.body.data.tree;
    for (const node of [tree, tree.children[0]]) {
      for (const f of NODE_FIELDS) expect(node).toHaveProperty(f);
      expect(node.cost).toMatch(SIX_DECIMALS);
      expect(Number.isInteger(node.executionTimeMs)).toBe(true);
      expect(node.startedAt).toMatch(ISO_8601);
      expect(node.completedAt).toMatch(ISO_8601);
    }
    expect(tree).toMatchObject({ agentId: root.id, agentName: root.name, capabilityId: 'echo', cost: '0.011000' });
    expect(tree.children).toHaveLength(1);
    expect(tree.children[0]).toMatchObject({ agentId: leaf.id, agentName: leaf.name, cost: '0.021000', children: [] });
  });

  it('shows an anonymous reader rootTransactionId and every node transactionId', () => {
    const d = ended.body.data;
    expect(d.rootTransactionId).toBe(rootReply.body.data.transactionId);
    expect(d.tree.transactionId).toBe(rootReply.body.data.transactionId);
    expect(d.tree.children[0].transactionId).toMatch(/^tx_/);
  });

  it('answers the same chain at GET /chains/<rootTransactionId>', async () => {
    const byTx = await api(m, 'GET', `/api/v1/chains/${rootReply.body.data.transactionId}`);
    expectStatus(byTx, 200, 'chain by root transaction id:');
    expect(byTx.body.data).toEqual(ended.body.data);
  });
});

describe('Execution chains', () => {
  it('reads the cost: totalCost, breakdown {platformFees, agentFees, platformCuts}, byAgent, byDepth', async () => {
    const r = await api(m, 'GET', `/api/v1/chains/${chainId}/cost`);
    expectStatus(r, 200, 'chain cost:');
    const d = r.body.data;
    expect(d).toMatchObject({ totalCost: '0.032000' });
    expect(d.breakdown).toMatchObject({ platformFees: '0.002000', agentFees: '0.030000', platformCuts: '0.001500' });
    const byAgent = [...d.byAgent].sort((x, y) => (micro(x.totalCost) < micro(y.totalCost) ? -1 : 1));
    expect(byAgent).toMatchObject([
      { agentId: root.id, agentName: root.name, executionCount: 1, totalCost: '0.011000', earnings: '0.009500' },
      { agentId: leaf.id, agentName: leaf.name, executionCount: 1, totalCost: '0.021000', earnings: '0.019000' },
    ]);
    expect([...d.byDepth].sort((x, y) => x.depth - y.depth)).toMatchObject([
      { depth: 0, nodeCount: 1, totalCost: '0.011000' },
      { depth: 1, nodeCount: 1, totalCost: '0.021000' },
    ]);
  });

  it('names the root transaction in the cost', async () => {
    const r = await api(m, 'GET', `/api/v1/chains/${chainId}/cost`);
    expect(r.body.data.rootTransactionId).toBe(rootReply.body.data.transactionId);
  });

  it('answers the cost of an unknown chain with 404 CHAIN_NOT_FOUND', async () => {
    const r = await api(m, 'GET', '/api/v1/chains/0b5f4a3e-8c2d-4e1f-a6b7-c8d9e0f1a2b3/cost');
    expect([r.status, r.body.error?.code]).toEqual([404, 'CHAIN_NOT_FOUND']);
  });

  it('estimates a chain for free with budget-check: total, breakdown, capability, warnings, 1.5 x budget', async () => {
    const body = { targetAgentId: leaf.id, capabilityId: 'echo', input: {} };
    const r = await api(m, 'POST', '/api/v1/chains/budget-check', { body });
    expectStatus(r, 200, 'budget-check:');
    const d = r.body.data;
    expect(d.breakdown).toMatchObject({ directCost: '0.021000', platformFees: '0.002000' });
    expect(micro(d.breakdown.estimatedSubAgentCosts)).toBe(0n);
    expect(d.breakdown.contingency).toMatch(SIX_DECIMALS);
    expect(d.capability).toMatchObject({ id: 'echo', name: expect.any(String), basePrice: '0.020000' });
    expect(Array.isArray(d.warnings) && d.warnings.every((w: unknown) => typeof w === 'string')).toBe(true);
    expect(d.estimatedTotal).toMatch(SIX_DECIMALS);
    expect(micro(d.estimatedTotal)).toBeGreaterThanOrEqual(micro(d.breakdown.directCost));
    // 50% above the estimate, to the micro-unit.
    const gap = micro(d.recommendedBudget) * 2n - micro(d.estimatedTotal) * 3n;
    expect(gap >= -1n && gap <= 1n).toBe(true);
  });

  it('counts sub-agent costs when estimatedDepth is above 1', async () => {
    const body = { targetAgentId: leaf.id, capabilityId: 'echo', input: {} };
    const one = await api(m, 'POST', '/api/v1/chains/budget-check', { body });
    const three = await api(m, 'POST', '/api/v1/chains/budget-check', { body: { ...body, estimatedDepth: 3 } });
    expectStatus(three, 200, 'budget-check depth 3:');
    expect(micro(three.body.data.breakdown.estimatedSubAgentCosts)).toBeGreaterThan(0n);
    expect(micro(three.body.data.estimatedTotal)).toBeGreaterThan(micro(one.body.data.estimatedTotal));
    const without = await api(m, 'POST', '/api/v1/chains/budget-check', {
      body: { ...body, estimatedDepth: 3, includeSubAgentCosts: false },
    });
    expect(micro(without.body.data.breakdown.estimatedSubAgentCosts)).toBe(0n);
  });
});
