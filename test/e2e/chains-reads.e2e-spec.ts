import { DataSource } from 'typeorm';
import { CHAIN_CHECKS, FinishChain } from '@app/chains';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { startOrchestratorAgent, RunningOrchestrator } from '../../examples/orchestrator-agent';
import { ApiHarness, startApi } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent, orchestrateCapability } from '../support/factories';
import { clientSignature } from '../support/disputes';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const ROOT_COST = 21_000n; // 0.001 + the orchestrator's 0.020
const SUB_COST = 11_000n; // 0.001 + the translator's 0.010

interface TreeNode {
  requestId: string | null;
  transactionId: string | null;
  children: TreeNode[];
}
const flatten = (n: TreeNode): TreeNode[] => [n, ...n.children.flatMap(flatten)];
const withoutRequestIds = (n: TreeNode): TreeNode => ({
  ...n,
  requestId: null,
  children: n.children.map(withoutRequestIds),
});

/** Execution chains over HTTP (resolutions §5), with real agent servers on loopback: an orchestrator paying a translator from its chain's budget. */
describe('chains API (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let translator: TestAgentServer;
  let orchestrator: RunningOrchestrator;
  let translatorId: string;
  let orchestratorId: string;

  beforeAll(async () => {
    translator = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true', EXECUTION_TIMEOUT_MS: '3000' });
    ds = api.app.get(DataSource);
    orchestrator = await startOrchestratorAgent({ platformUrl: api.baseUrl });
    translatorId = (await registerAgent(api, newWallet(), { endpoints: { execution: translator.url } })).body.data.id;
    orchestratorId = (
      await registerAgent(api, newWallet(), {
        name: 'Orchestrator',
        endpoints: { execution: orchestrator.url },
        capabilities: [
          capabilityPayload({
            id: 'orchestrate',
            inputSchema: {
              type: 'object',
              properties: { calls: { type: 'array' }, parallel: { type: 'boolean' }, failAfter: { type: 'boolean' } },
            },
            outputSchema: { type: 'object' },
            pricing: { model: 'per-request', basePrice: '0.020000', currency: 'USDC' },
          }),
        ],
      })
    ).body.data.id;
    orchestrator.serve(orchestratorId);
  });
  afterAll(async () => {
    await orchestrator.stop();
    await api.close();
    await translator.stop();
  });

  const invariants = async () =>
    (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS, ...CHAIN_CHECKS])).results.filter(
      (r) => r.violations.length,
    );
  const translate = (text: string) => ({ targetAgentId: translatorId, capabilityId: 'translate', input: { text } });
  const openChain = async (
    input: Record<string, unknown>,
    chain: Record<string, unknown> = { budget: '1.00' },
    amount = ROOT_COST + 1_000_000n,
  ) => {
    const payer = newWallet();
    const pay = await x402Header(payer, { amount, payTo: api.config.platformWallet });
    const res = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: orchestratorId, capabilityId: 'orchestrate', input, chain },
      headers: { [pay.name]: pay.value },
    });
    return { res, payer, paid: { [pay.name]: pay.value } };
  };

  it('a root that fails after its sub-calls ends the chain failed: its own cost comes back but the platform fee, the sub-calls stay paid', async () => {
    const { res, payer } = await openChain({ calls: [translate('paid')], failAfter: true });
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({
      code: 'EXECUTION_FAILED',
      details: { chain: { chainId: expect.any(String), remainingBudget: '1.010000' } },
    });
    const chainId = res.body.error.details.chain.chainId;
    expect(await api.app.get(FinishChain).execute(chainId)).toBe(true);
    const [chain] = await ds.query(`SELECT status, refunded::text FROM chains WHERE id = $1`, [chainId]);
    // A failed root keeps the platform fee (0.001): failing on purpose is not free.
    expect(chain).toEqual({ status: 'failed', refunded: String(ROOT_COST + 1_000_000n - SUB_COST - 1_000n) });
    const [refund] = await ds.query(
      `SELECT wallet FROM refunds WHERE id = (SELECT refund_id FROM chains WHERE id = $1)`,
      [chainId],
    );
    expect(refund.wallet).toBe(payer.address.toLowerCase());
    expect(await invariants()).toEqual([]);
  });

  it('reads a 3-level chain by its id, root requestId or root transactionId: the tree, and costs whose groupings sum to the total', async () => {
    const second = (
      await registerAgent(api, newWallet(), {
        name: 'Second orchestrator',
        endpoints: { execution: orchestrator.url },
        capabilities: [
          orchestrateCapability({ pricing: { model: 'per-request', basePrice: '0.030000', currency: 'USDC' } }),
        ],
      })
    ).body.data.id;
    orchestrator.serve(second);
    const { res, payer, paid } = await openChain({
      calls: [
        { targetAgentId: second, capabilityId: 'orchestrate', input: { calls: [translate('deep')] } },
        translate('shallow'),
      ],
    });
    expect(res.status).toBe(200);
    const { chainId } = res.body.data.chain;
    // The root's requestId is shown to the paying client only (issue 29): its wallet's signature (issue 52).
    const byId = await api.request('GET', `/api/v1/chains/${chainId}`, {
      headers: await clientSignature(payer, payer.address),
    });
    expect(byId.status).toBe(200);
    const chain = byId.body.data;
    expect(chain).toMatchObject({
      chainId,
      rootRequestId: res.body.data.requestId,
      rootTransactionId: res.body.data.transactionId,
      // Every node succeeded and nothing runs: completed, though still open for the root caller's token.
      status: 'completed',
      completedAt: null,
      closesAt: expect.any(String),
      budget: '1.000000',
      nodeCount: 4,
      maxDepthReached: 2,
      maxDepth: 5,
    });
    expect(chain.traceId).toMatch(/^[0-9a-f]{32}$/);
    const costs = [ROOT_COST, 31_000n, SUB_COST, SUB_COST];
    expect(chain.totalCost).toBe((Number(costs.reduce((a, b) => a + b)) / 1e6).toFixed(6));
    expect(chain.remainingBudget).toBe((Number(1_000_000n - 31_000n - 2n * SUB_COST) / 1e6).toFixed(6));
    const shape = (n: {
      agentId: string;
      depth: number;
      status: string;
      cost: string;
      children: unknown[];
    }): unknown => ({
      agentId: n.agentId,
      depth: n.depth,
      status: n.status,
      cost: n.cost,
      children: (n.children as (typeof n)[]).map(shape),
    });
    expect(shape(chain.tree)).toEqual({
      agentId: orchestratorId,
      depth: 0,
      status: 'completed',
      cost: '0.021000',
      children: [
        {
          agentId: second,
          depth: 1,
          status: 'completed',
          cost: '0.031000',
          children: [{ agentId: translatorId, depth: 2, status: 'completed', cost: '0.011000', children: [] }],
        },
        { agentId: translatorId, depth: 1, status: 'completed', cost: '0.011000', children: [] },
      ],
    });
    expect(chain.tree).toMatchObject({
      agentName: 'Orchestrator',
      transactionId: res.body.data.transactionId,
      spanId: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    // Without credentials (issue 51): the same resource by any of its ids, every transaction id, no request id.
    const anonymous = await api.request('GET', `/api/v1/chains/${chainId}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.data).toEqual({ ...chain, rootRequestId: null, tree: withoutRequestIds(chain.tree) });
    expect(anonymous.body.data.rootTransactionId).toBe(res.body.data.transactionId);
    expect(flatten(anonymous.body.data.tree).map((n) => n.transactionId)).toEqual(
      Array.from({ length: 4 }, () => expect.stringMatching(/^tx_/)),
    );
    expect(JSON.stringify(anonymous.body)).not.toContain('req_');
    for (const ref of [res.body.data.transactionId, res.body.data.requestId, chainId.toUpperCase()])
      expect((await api.request('GET', `/api/v1/chains/${ref}`)).body).toEqual(anonymous.body);
    // The header that paid is public on chain (rebuilt from the settlement's calldata): it shows no request id.
    expect((await api.request('GET', `/api/v1/chains/${chainId}`, { headers: paid })).body).toEqual(anonymous.body);
    const cost = (await api.request('GET', `/api/v1/chains/${chainId}/cost`)).body.data;
    expect((await api.request('GET', `/api/v1/chains/${res.body.data.transactionId}/cost`)).body.data).toEqual(cost);
    expect(cost.rootTransactionId).toBe(res.body.data.transactionId);
    const micros = (s: string) => BigInt(s.replace('.', ''));
    const total = micros(cost.totalCost);
    expect(total).toBe(costs.reduce((a, b) => a + b));
    expect(micros(cost.breakdown.platformFees) + micros(cost.breakdown.agentFees)).toBe(total);
    expect(cost.breakdown.platformFees).toBe('0.004000');
    expect(cost.byAgent.reduce((s: bigint, a: { totalCost: string }) => s + micros(a.totalCost), 0n)).toBe(total);
    expect(cost.byDepth).toEqual([
      { depth: 0, nodeCount: 1, totalCost: '0.021000' },
      { depth: 1, nodeCount: 2, totalCost: '0.042000' },
      { depth: 2, nodeCount: 1, totalCost: '0.011000' },
    ]);
    expect(cost.byAgent.find((a: { agentId: string }) => a.agentId === translatorId)).toEqual({
      agentId: translatorId,
      agentName: expect.any(String),
      executionCount: 2,
      totalCost: '0.022000',
      earnings: '0.019000',
    });
    expect((await api.request('GET', '/api/v1/chains/00000000-0000-4000-8000-000000000000')).body.error.code).toBe(
      'CHAIN_NOT_FOUND',
    );
    expect((await api.request('GET', '/api/v1/chains/nope/cost')).status).toBe(400);
  });

  it('estimates a budget (free), with warnings, and checks the input like an execute', async () => {
    const res = await api.request('POST', '/api/v1/chains/budget-check', {
      body: { targetAgentId: orchestratorId, capabilityId: 'orchestrate', input: {}, estimatedDepth: 3 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      estimatedTotal: '0.075600',
      breakdown: {
        directCost: '0.021000',
        platformFees: '0.002000',
        estimatedSubAgentCosts: '0.042000',
        contingency: '0.012600',
      },
      capability: { id: 'orchestrate', name: expect.any(String), basePrice: '0.020000' },
      warnings: [],
      recommendedBudget: '0.113400',
    });
    const without = await api.request('POST', '/api/v1/chains/budget-check', {
      body: {
        targetAgentId: orchestratorId,
        capabilityId: 'orchestrate',
        input: {},
        estimatedDepth: 3,
        includeSubAgentCosts: false,
      },
    });
    expect(without.body.data.breakdown.estimatedSubAgentCosts).toBe('0.000000');
    expect(without.body.data.warnings).toEqual([expect.stringContaining('sub-agent costs are left out')]);
    const bad = await api.request('POST', '/api/v1/chains/budget-check', {
      body: { targetAgentId: translatorId, capabilityId: 'translate', input: { nope: 1 } },
    });
    expect(bad.status).toBe(422);
    for (const body of [
      { targetAgentId: translatorId, capabilityId: 'translate', input: {}, estimatedDepth: 0 },
      { targetAgentId: 'x', capabilityId: 'translate', input: {} },
    ]) {
      expect((await api.request('POST', '/api/v1/chains/budget-check', { body })).status).toBe(400);
    }
  });
});
