import { DataSource } from 'typeorm';
import { CHAIN_CHECKS, ChainTokens } from '@app/chains';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { startOrchestratorAgent, RunningOrchestrator } from '../../examples/orchestrator-agent';
import { ApiHarness, startApi } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent, orchestrateCapability } from '../support/factories';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

const ROOT_COST = 21_000n;
const SUB_COST = 11_000n;

async function until<T>(probe: () => T | undefined, what: string, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Chained calls made with a live root's token (the orchestrator holds its run open): every refusal
 * with its code, status and details, and the fan-out of G14 over HTTP.
 */
describe('chained calls (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let translator: TestAgentServer;
  let orchestrator: RunningOrchestrator;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    translator = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true', EXECUTION_TIMEOUT_MS: '8000' });
    ds = api.app.get(DataSource);
    orchestrator = await startOrchestratorAgent({ platformUrl: api.baseUrl });
    const register = async (name: string, o: Record<string, unknown>) => {
      const { chainSettings, ...fields } = o;
      const owner = newWallet();
      const res = await registerAgent(api, owner, { name, ...fields });
      if (res.status !== 201) throw new Error(`registering ${name}: ${JSON.stringify(res.body)}`);
      ids[name] = res.body.data.id;
      if (!chainSettings) return;
      const patched = await api.request('PATCH', `/api/v1/agents/${ids[name]}`, {
        body: { chainSettings },
        headers: await walletHeaders(owner, ids[name], `PATCH /api/v1/agents/${ids[name]}`),
      });
      if (patched.status !== 200) throw new Error(`chain settings of ${name}: ${JSON.stringify(patched.body)}`);
    };
    await register('translator', { endpoints: { execution: translator.url } });
    await register('orchestrator', {
      endpoints: { execution: orchestrator.url },
      capabilities: [orchestrateCapability()],
    });
    orchestrator.serve(ids.orchestrator);
    await register('disabled', { endpoints: { execution: translator.url }, chainSettings: { chain_enabled: false } });
    await register('blocking', {
      endpoints: { execution: translator.url },
      chainSettings: { chain_blocked_callers: [ids.orchestrator] },
    });
    await register('allowlisted', {
      endpoints: { execution: translator.url },
      chainSettings: { chain_allowed_callers: [ids.translator] },
    });
    await register('expensive', {
      endpoints: { execution: translator.url },
      capabilities: [capabilityPayload({ pricing: { model: 'per-request', basePrice: '5.000000', currency: 'USDC' } })],
    });
  });
  afterAll(async () => {
    await orchestrator.stop();
    await api.close();
    await translator.stop();
  });

  /** Opens a chain whose root holds its run open for `holdMs`; answers the root's token and the pending root response. */
  async function liveChain(o: { budget: string; maxDepth?: number; holdMs?: number }) {
    const pay = await x402Header(newWallet(), {
      amount: ROOT_COST + BigInt(Math.round(Number(o.budget) * 1e6)),
      payTo: api.config.platformWallet,
    });
    const marker = `hold-${Math.random()}`;
    const root = api.request('POST', '/api/v1/execute', {
      body: {
        targetAgentId: ids.orchestrator,
        capabilityId: 'orchestrate',
        input: { holdMs: o.holdMs ?? 3000, marker },
        chain: { budget: o.budget, maxDepth: o.maxDepth },
      },
      headers: { [pay.name]: pay.value },
    });
    const call = await until(
      () => orchestrator.state.calls.find((c) => c.json.input.marker === marker),
      'the root call',
    );
    return { token: String(call.headers['x-chain-token']), chainId: call.json.chain!.chainId, root };
  }
  const sub = (token: string, agent: string, input: Record<string, unknown> = { text: 'hi' }) =>
    api.request('POST', '/api/v1/execute', {
      body: {
        targetAgentId: ids[agent] ?? agent,
        capabilityId: agent === 'orchestrator' ? 'orchestrate' : 'translate',
        input,
      },
      headers: { 'x-chain-token': token },
    });
  const refusal = (r: { status: number; body: { error?: { code: string; details?: unknown } } }) => ({
    status: r.status,
    code: r.body.error?.code,
    details: r.body.error?.details,
  });

  it('refuses each bad call with its code, status and details, and charges nothing for any', async () => {
    const { token, chainId, root } = await liveChain({ budget: '1.00', maxDepth: 1 });
    const [body, sig] = token.split('.');
    const richer = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), rb: '999.000000' }),
    ).toString('base64url');
    expect(refusal(await sub(`${richer}.${sig}`, 'translator'))).toMatchObject({
      status: 401,
      code: 'CHAIN_TOKEN_INVALID',
    });
    expect(refusal(await sub('garbage', 'translator'))).toMatchObject({ status: 401, code: 'CHAIN_TOKEN_INVALID' });
    const stale = new ChainTokens(api.config, {
      nowMs: () => Date.now() - 31_000,
      now: () => new Date(Date.now() - 31_000),
    } as never);
    expect(refusal(await sub(stale.mint({ ...api.app.get(ChainTokens).verify(token) }), 'translator'))).toMatchObject({
      status: 401,
      code: 'CHAIN_TOKEN_EXPIRED',
    });
    expect(refusal(await sub(token, 'orchestrator', {}))).toEqual({
      status: 400,
      code: 'CIRCULAR_DEPENDENCY',
      details: { chain: [ids.orchestrator, ids.orchestrator] },
    });
    expect(refusal(await sub(token, 'disabled'))).toMatchObject({ status: 403, code: 'CHAIN_DISABLED' });
    expect(refusal(await sub(token, 'blocking'))).toMatchObject({ status: 403, code: 'AGENT_NOT_CHAINABLE' });
    expect(refusal(await sub(token, 'allowlisted'))).toMatchObject({ status: 403, code: 'AGENT_NOT_CHAINABLE' });
    expect(refusal(await sub(token, 'expensive'))).toEqual({
      status: 402,
      code: 'BUDGET_EXCEEDED',
      details: { estimated: '5.001000', remaining: '1.000000', shortfall: '4.001000' },
    });
    expect(refusal(await sub(token, '00000000-0000-4000-8000-000000000000'))).toMatchObject({
      status: 404,
      code: 'AGENT_NOT_FOUND',
    });
    expect(refusal(await sub(token, 'translator', { nope: 1 }))).toMatchObject({
      status: 422,
      code: 'INPUT_SCHEMA_MISMATCH',
    });
    const pay = await x402Header(newWallet(), { amount: SUB_COST, payTo: api.config.platformWallet });
    const both = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: ids.translator, capabilityId: 'translate', input: { text: 'x' } },
      headers: { 'x-chain-token': token, [pay.name]: pay.value },
    });
    expect(refusal(both)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    // One allowed call at depth 1; the callee's own token cannot go deeper than maxDepth 1.
    const ok = await sub(token, 'translator', { text: 'deep' });
    expect(ok.status).toBe(200);
    expect(ok.body.data.chain).toEqual({
      chainId,
      depth: 1,
      remainingBudget: '0.989000',
      childToken: expect.any(String),
    });
    const calleeToken = String(translator.calls.find((c) => c.json.input.text === 'deep')!.headers['x-chain-token']);
    expect(refusal(await sub(calleeToken, 'allowlisted'))).toEqual({
      status: 400,
      code: 'DEPTH_LIMIT',
      details: { currentDepth: 2, maxDepth: 1 },
    });
    // Its output is read back with a token of the chain, not without one.
    const read = await api.request('GET', `/api/v1/execute/${ok.body.data.requestId}`, {
      headers: { 'x-chain-token': ok.body.data.chain.childToken },
    });
    expect(read.body.data.output).toEqual({ translation: 'DEEP' });
    expect((await api.request('GET', `/api/v1/execute/${ok.body.data.requestId}`)).body.data.output).toBeUndefined();
    // Past its time limit the chain takes no call.
    await ds.query(`UPDATE chains SET expires_at = now() - interval '1 second' WHERE id = $1`, [chainId]);
    expect(refusal(await sub(ok.body.data.chain.childToken, 'translator'))).toMatchObject({
      status: 408,
      code: 'CHAIN_TIMEOUT',
    });
    expect((await root).status).toBe(200);
    const [{ nodes }] = await ds.query(`SELECT count(*)::int AS nodes FROM chain_nodes WHERE chain_id = $1`, [chainId]);
    expect(nodes).toBe(2); // the root and the one allowed call
    // After the root ended, its token opens nothing.
    expect(refusal(await sub(ok.body.data.chain.childToken, 'translator'))).toMatchObject({
      code: expect.stringMatching(/^CHAIN_(NOT_FOUND|TIMEOUT)$/),
    });
  });

  it("takes a chained call on a capability's own resource too (X-Chain-Token, the body the input)", async () => {
    const { token, chainId, root } = await liveChain({ budget: '1.00' });
    const path = `/api/v1/agents/${ids.translator}/capabilities/translate/execute`;
    expect(
      refusal(await api.request('POST', path, { body: { text: 'a' }, headers: { 'x-chain-token': 'garbage' } })),
    ).toMatchObject({ status: 401, code: 'CHAIN_TOKEN_INVALID' });
    const ok = await api.request('POST', path, { body: { text: 'resource' }, headers: { 'x-chain-token': token } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.output).toEqual({ translation: 'RESOURCE' });
    expect(ok.body.data.chain).toEqual({
      chainId,
      depth: 1,
      remainingBudget: '0.989000',
      childToken: expect.any(String),
    });
    expect((await root).status).toBe(200);
  });

  it('a target remembered from an earlier call is confirmed by the reservation: one that turned chaining off since refuses the next call, nothing reserved, and on again runs it', async () => {
    const owner = newWallet();
    const res = await registerAgent(api, owner, { name: 'switching', endpoints: { execution: translator.url } });
    ids.switching = res.body.data.id;
    const { token, chainId, root } = await liveChain({ budget: '1.00', holdMs: 6000 });
    const first = await sub(token, 'switching');
    expect(first.status).toBe(200); // read, checked and remembered
    const patched = await api.request('PATCH', `/api/v1/agents/${ids.switching}`, {
      body: { chainSettings: { chain_enabled: false } },
      headers: await walletHeaders(owner, ids.switching, `PATCH /api/v1/agents/${ids.switching}`),
    });
    expect(patched.status).toBe(200);
    expect(refusal(await sub(first.body.data.chain.childToken, 'switching'))).toMatchObject({
      status: 403,
      code: 'CHAIN_DISABLED',
    });
    const [chain] = await ds.query(
      `SELECT available::text, (SELECT count(*)::int FROM chain_nodes WHERE chain_id = c.id) AS nodes FROM chains c WHERE id = $1`,
      [chainId],
    );
    expect(chain).toEqual({ available: String(1_000_000n - SUB_COST), nodes: 2 });
    // Remembered as disabled, turned on again: the refusal is decided on a fresh read, so the call runs.
    const enabled = await api.request('PATCH', `/api/v1/agents/${ids.switching}`, {
      body: { chainSettings: { chain_enabled: true } },
      headers: await walletHeaders(owner, ids.switching, `PATCH /api/v1/agents/${ids.switching}`),
    });
    expect(enabled.status).toBe(200);
    expect((await sub(first.body.data.chain.childToken, 'switching')).status).toBe(200);
    const ended = await root;
    expect(ended.status).toBe(200);
    // Once the chain has ended (its root caller closes it), a call that would also be refused for its
    // target is refused for the chain first.
    const { chain: rootChain } = ended.body.data;
    const closed = await api.request('POST', `/api/v1/chains/${rootChain.chainId}/close`, {
      headers: { 'x-chain-token': rootChain.childToken },
    });
    expect(closed.status).toBe(200);
    expect(refusal(await sub(first.body.data.chain.childToken, 'disabled'))).toMatchObject({
      status: 404,
      code: 'CHAIN_NOT_FOUND',
    });
  });

  it('G14 over HTTP: 100 parallel sub-calls of 0.011 on a 0.50 budget: exactly 45 succeed, the rest BUDGET_EXCEEDED, nothing overspent', async () => {
    const { token, chainId, root } = await liveChain({ budget: '0.50', holdMs: 4000 });
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => sub(token, 'translator', { text: `fan${i}` })),
    );
    const byStatus = answers.reduce<Record<number, number>>(
      (m, a) => ({ ...m, [a.status]: (m[a.status] ?? 0) + 1 }),
      {},
    );
    expect(byStatus).toEqual({ 200: 45, 402: 55 });
    expect(new Set(answers.filter((a) => a.status === 402).map((a) => a.body.error.code))).toEqual(
      new Set(['BUDGET_EXCEEDED']),
    );
    // What no running node has reserved (the root still runs): the budget less the 45 charged calls; 0.005 is less than one more.
    const [chain] = await ds.query(`SELECT available::text FROM chains WHERE id = $1`, [chainId]);
    expect(chain.available).toBe(String(500_000n - 45n * SUB_COST));
    expect((await root).status).toBe(200);
    expect(
      (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS, ...CHAIN_CHECKS])).results.filter(
        (r) => r.violations.length,
      ),
    ).toEqual([]);
  });
});
