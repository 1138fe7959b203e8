import { registerAgent } from '../support/factories';
import { ChainSessions, CALL_COST, claimsOf, ROOT_COST, startChainSessions } from '../support/chain-session';
import { waitFor } from '../support/processes';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

/** The root caller's chain (issue 34): who the caller is to its targets, a flat chain, and a close while a call runs. */
describe("the root caller's chain: rules (e2e)", () => {
  let s: ChainSessions;
  beforeAll(async () => {
    s = await startChainSessions(3);
  });
  afterAll(() => s.stop());

  it("the root's caller is no agent: an agent taking calls from listed agents only refuses it; a maxDepth 0 chain hands no token", async () => {
    const owner = newWallet();
    const listedId = (await registerAgent(s.api, owner, { endpoints: { execution: s.translator.url } })).body.data.id;
    const patched = await s.api.request('PATCH', `/api/v1/agents/${listedId}`, {
      body: { chainSettings: { chain_allowed_callers: [s.orchestratorId] } },
      headers: await walletHeaders(owner, listedId, `PATCH /api/v1/agents/${listedId}`),
    });
    expect(patched.status).toBe(200);
    const { data } = await s.openChain('0.10');
    const refused = await s.api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: listedId, capabilityId: 'translate', input: { text: 'x' } },
      headers: { 'x-chain-token': data.chain.childToken },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'AGENT_NOT_CHAINABLE',
      details: { agentId: listedId, callerAgentId: null, reason: 'root_caller' },
    });
    // A call the caller may make names its wallet as the requesting party, and the callee's token no parent agent.
    const ok = await s.call(data.chain.childToken, 'fine');
    expect(ok.status).toBe(200);
    const [charge] = await s.ds.query(`SELECT requesting_agent FROM transactions WHERE id = $1`, [
      ok.body.data.transactionId,
    ]);
    expect(charge.requesting_agent).toBe(claimsOf(data.chain.childToken).rw);
    const calleeToken = s.translator.calls.find((c) => c.json.requestId === ok.body.data.requestId)!.headers[
      'x-chain-token'
    ];
    expect(claimsOf(String(calleeToken))).toMatchObject({ d: 1, pa: null, path: [s.orchestratorId, s.translatorId] });
    expect(claimsOf(String(calleeToken)).cl).toBeUndefined();

    // maxDepth 0: nothing may be called below the root, so its answer hands no token and nothing holds the chain.
    const payer = newWallet();
    const pay = await x402Header(payer, { amount: ROOT_COST + 100_000n, payTo: s.api.config.platformWallet });
    const flat = await s.api.request('POST', '/api/v1/execute', {
      body: {
        targetAgentId: s.orchestratorId,
        capabilityId: 'orchestrate',
        input: { calls: [] },
        chain: { budget: '0.10', maxDepth: 0 },
      },
      headers: { [pay.name]: pay.value },
    });
    expect(flat.status).toBe(200);
    expect(flat.body.data.chain.childToken).toBeUndefined();
    await waitFor(
      async () => (await s.chainRow(flat.body.data.chain.chainId)).status === 'completed',
      'the flat chain to close',
    );
  });

  it('closing while a call of the caller runs: that call answers without a fresh token, and the chain closes when it ends', async () => {
    const { data } = await s.openChain('0.20');
    const chainId = data.chain.chainId;
    const slow = s.api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: s.translatorId, capabilityId: 'translate', input: { text: 'slow', mode: 'slow' } },
      headers: { 'x-chain-token': data.chain.childToken },
    });
    await waitFor(async () => (await s.nodes(chainId)) === 2, 'the slow call to enter');
    const closing = await s.api.request('POST', `/api/v1/chains/${chainId}/close`, {
      headers: { 'x-chain-token': data.chain.childToken },
    });
    expect(closing.status).toBe(200);
    expect(closing.body.data).toMatchObject({ status: 'running', completedAt: null });
    expect(closing.body.data.refund).toBeUndefined();
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(answer.body.data.output).toEqual({ translation: 'late' }); // the example agent's slow answer
    expect(answer.body.data.chain.childToken).toBeUndefined();
    const closed = await waitFor(async () => {
      const c = await s.chainRow(chainId);
      return c.status === 'completed' ? c : null;
    }, 'the chain to close once the call ended');
    expect(closed.refunded).toBe(String(200_000n - CALL_COST));
    // The hold was given up: the token, still within its expiry, opens nothing.
    const after = await s.call(data.chain.childToken, 'after');
    expect([after.status, after.body.error?.code]).toEqual([404, 'CHAIN_NOT_FOUND']);
    expect(await s.invariants()).toEqual([]);
  });
});
