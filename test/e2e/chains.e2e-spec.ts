import { createPublicKey, verify } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CHAIN_CHECKS, ChainTokens, FinishChain } from '@app/chains';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { startOrchestratorAgent, RunningOrchestrator } from '../../examples/orchestrator-agent';
import { ApiHarness, startApi } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const ROOT_COST = 21_000n; // 0.001 + the orchestrator's 0.020
const SUB_COST = 11_000n; // 0.001 + the translator's 0.010

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
  /** The root's caller closes its chain with the token the root's answer handed it. */
  const closeChain = (chain: { chainId: string; childToken: string }) =>
    api.request('POST', `/api/v1/chains/${chain.chainId}/close`, { headers: { 'x-chain-token': chain.childToken } });
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

  it('publishes the chain token keys: a token the platform minted verifies with the published JWK and node:crypto alone', async () => {
    const res = await api.request('GET', '/api/v1/chains/keys');
    expect(res.status).toBe(200);
    const { keys } = res.body.data;
    expect(keys).toEqual([
      {
        kid: expect.stringMatching(/^[0-9a-f]{16}$/),
        alg: 'Ed25519',
        status: 'current',
        publicKey: expect.any(String),
        jwk: { kty: 'OKP', crv: 'Ed25519', x: expect.any(String) },
      },
    ]);
    const platform = (await api.request('GET', '/api/v1/platform/keys')).body.data.keys[0];
    expect(keys[0].publicKey).not.toBe(platform.publicKey); // a separate key from the one that signs calls to agents
    const token = api.app.get(ChainTokens).mint({
      cid: '0f0e0d0c-0b0a-4909-8807-060504030201',
      d: 0,
      md: 2,
      rb: '1.000000',
      tb: '1.000000',
      pa: null,
      rw: `0x${'cd'.repeat(20)}`,
      sa: new Date().toISOString(),
      tid: '0af7651916cd43dd8448eb211c80319c',
      sid: 'b7ad6b7169203331',
      path: ['11111111-2222-4333-8444-555555555555'],
      ptx: 'req_abcdefgh12345678',
    });
    const [payload, signature] = token.split('.');
    expect(
      verify(
        null,
        Buffer.from(payload),
        createPublicKey({ key: keys[0].jwk, format: 'jwk' }),
        Buffer.from(signature, 'base64url'),
      ),
    ).toBe(true);
  });

  it('asks a chain root for its cost plus the budget, and refuses budgets and depths out of range', async () => {
    const unpaid = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: orchestratorId, capabilityId: 'orchestrate', input: {}, chain: { budget: '2.50' } },
    });
    expect(unpaid.status).toBe(402);
    expect(JSON.stringify(unpaid.body)).toContain(String(ROOT_COST + 2_500_000n));
    for (const chain of [
      { budget: '0.009' },
      { budget: '1000.01' },
      { budget: '1.0000001' },
      { budget: 5 },
      { maxDepth: 6 },
      { maxDepth: -1 },
      { maxDepth: 1.5 },
      'x',
    ]) {
      const res = await api.request('POST', '/api/v1/execute', {
        body: { targetAgentId: orchestratorId, capabilityId: 'orchestrate', input: {}, chain },
      });
      expect({ chain, status: res.status, code: res.body.error?.code }).toEqual({
        chain,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
  });

  it('runs a chain: the root pays two sub-calls from its budget, each answer carries the chain and a fresh token; the end refunds the rest once', async () => {
    const { res, payer } = await openChain({ calls: [translate('one'), translate('two')] });
    expect(res.status).toBe(200);
    const { data } = res.body;
    expect(data.chain).toEqual({
      chainId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      depth: 0,
      remainingBudget: '0.978000',
      childToken: expect.any(String),
    });
    expect(data.output.results).toEqual([
      {
        status: 200,
        requestId: expect.stringMatching(/^req_/),
        output: { translation: 'ONE' },
        remainingBudget: '0.989000',
      },
      {
        status: 200,
        requestId: expect.stringMatching(/^req_/),
        output: { translation: 'TWO' },
        remainingBudget: '0.978000',
      },
    ]);
    // The root agent got its token in the body and the header, and the chain's trace.
    const rootCall = orchestrator.state.calls.find((c) => c.json.requestId === data.requestId)!;
    expect(rootCall.json.chain).toEqual({
      chainId: data.chain.chainId,
      depth: 0,
      remainingBudget: '1.000000',
      token: rootCall.headers['x-chain-token'],
    });
    const traceId = String(rootCall.headers.traceparent).split('-')[1];
    expect(rootCall.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    // Each sub-call reached the translator with its own token (depth 1, the path extended) in the same trace.
    const subCalls = translator.calls.filter((c) => ['one', 'two'].includes(String(c.json.input.text)));
    expect(subCalls).toHaveLength(2);
    for (const c of subCalls) {
      const token = api.app.get(ChainTokens).verify(String(c.headers['x-chain-token']));
      expect(token).toMatchObject({
        cid: data.chain.chainId,
        d: 1,
        pa: orchestratorId,
        path: [orchestratorId, translatorId],
        rw: payer.address.toLowerCase(),
      });
      expect(String(c.headers.traceparent).split('-')[1]).toBe(traceId);
    }
    // Money: the root and two sub-calls charged from the chain; what is left is refunded to the payer once the chain ends.
    expect(await invariants()).toEqual([]);
    // The chain stays open for the root caller's token; its caller closes it, which ends it once.
    expect((await closeChain(data.chain)).status).toBe(200);
    expect(await api.app.get(FinishChain).execute(data.chain.chainId)).toBe(false);
    const [chain] = await ds.query(
      `SELECT status, refunded::text, available::text, (SELECT count(*)::int FROM chain_nodes WHERE chain_id = c.id AND status = 'running') AS running FROM chains c WHERE id = $1`,
      [data.chain.chainId],
    );
    expect(chain).toEqual({ status: 'completed', refunded: '978000', available: '0', running: 0 });
    const [refund] = await ds.query(`SELECT wallet, amount::text, reason FROM refunds WHERE execution_id = $1`, [
      data.requestId,
    ]);
    expect(refund).toEqual({ wallet: payer.address.toLowerCase(), amount: '978000', reason: 'chain_unspent' });
    // The chain's refund object says whether real money moved (local settlement: no).
    expect((await api.request('GET', `/api/v1/chains/${data.chain.chainId}`)).body.data.refund).toEqual({
      refundId: expect.stringMatching(/^rfd_/),
      amount: '0.978000',
      livemode: false,
    });
    const charges = await ds.query(
      `SELECT requesting_agent, providing_agent_id, gross_amount::text FROM transactions WHERE id IN (SELECT transaction_id FROM chain_nodes WHERE chain_id = $1) ORDER BY gross_amount`,
      [data.chain.chainId],
    );
    expect(charges).toEqual([
      { requesting_agent: orchestratorId, providing_agent_id: translatorId, gross_amount: String(SUB_COST) },
      { requesting_agent: orchestratorId, providing_agent_id: translatorId, gross_amount: String(SUB_COST) },
      {
        requesting_agent: payer.address.toLowerCase(),
        providing_agent_id: orchestratorId,
        gross_amount: String(ROOT_COST),
      },
    ]);
    expect(await invariants()).toEqual([]);
  });

  it("returns a failed sub-call's reservation to the budget (node refunded): the chain ends partial", async () => {
    const { res } = await openChain({
      calls: [{ ...translate('x'), input: { text: 'x', mode: 'fail' } }, translate('ok')],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.output.results[0]).toEqual({
      status: 502,
      error: expect.objectContaining({
        code: 'EXECUTION_FAILED',
        details: expect.objectContaining({
          chain: { chainId: res.body.data.chain.chainId, remainingBudget: '1.000000' },
        }),
      }),
    });
    expect(res.body.data.chain.remainingBudget).toBe('0.989000');
    const nodes = await ds.query(`SELECT status FROM chain_nodes WHERE chain_id = $1 ORDER BY started_at`, [
      res.body.data.chain.chainId,
    ]);
    expect(nodes.map((n: { status: string }) => n.status)).toEqual(['completed', 'refunded', 'completed']);
    expect((await closeChain(res.body.data.chain)).body.data.status).toBe('partial');
    expect((await ds.query(`SELECT status FROM chains WHERE id = $1`, [res.body.data.chain.chainId]))[0].status).toBe(
      'partial',
    );
    expect(await invariants()).toEqual([]);
  });
});
