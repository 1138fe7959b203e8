/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: POST /api/v1/execute and its reads (spec §2 "Execution result", §4 "Execution", resolutions §4): the
 * result, the call to the agent, validation before payment, failures and retries, async runs, callbacks.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { Wallet } from 'ethers';
import { AgentServer, startAgentServer } from './support/agent-server';
import { api, expectStatus, poll, requirement } from './support/http';
import { capability, earned, execute, executeOk, registerAgent } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { boundAgentSignature, newWallet, paymentHeader } from './support/wallets';

const TEXT = { type: 'object', required: ['text'], properties: { text: { type: 'string' } } };
const upper = (req: { body: any }) => ({ body: { output: { text: String(req.body?.input?.text).toUpperCase() } } });

let m: Marketplace;
let agent: AgentServer;
let agentId: string;
let payer: Wallet;
const body = (input: Record<string, unknown> = { text: 'hola' }, extra: Record<string, unknown> = {}) => ({
  targetAgentId: agentId,
  capabilityId: 'translate',
  input,
  ...extra,
});

beforeAll(async () => {
  m = await startMarketplace();
  agent = await startAgentServer(upper);
  const cap = capability({ id: 'translate', name: 'Translate', inputSchema: TEXT, outputSchema: TEXT });
  agentId = (await registerAgent(m, newWallet(), { capabilities: [cap], endpoints: { execution: agent.url } })).id;
}, 120_000);
beforeEach(() => {
  agent.handler = upper;
  payer = newWallet();
});
afterAll(async () => {
  await agent?.close();
  await m?.stop();
});

describe('Execution result', () => {
  it('answers requestId req_..., status, the output, executionTime in integer ms, cost and transactionId', async () => {
    const r = await executeOk(m, payer, body());
    const d = r.body.data;
    expect(d.requestId).toMatch(/^req_/);
    expect(d.status).toBe('completed');
    expect(d.output).toEqual({ text: 'HOLA' });
    expect(Number.isInteger(d.executionTime) && d.executionTime >= 0).toBe(true);
    expect(d.cost).toMatchObject({ agentFee: '0.010000', platformFee: '0.001000', total: '0.011000' });
    expect(d.transactionId).toMatch(/^tx_/);
  });

  it('reads back status, cost, settlement {status, txHash} and, with the original X-PAYMENT, the output', async () => {
    const r = await executeOk(m, payer, body());
    const read = await api(m, 'GET', `/api/v1/execute/${r.body.data.requestId}`, {
      headers: { 'X-PAYMENT': r.payment },
    });
    expectStatus(read, 200);
    expect(read.body.data).toMatchObject({
      requestId: r.body.data.requestId,
      status: 'completed',
      output: { text: 'HOLA' },
      cost: { agentFee: '0.010000', platformFee: '0.001000' },
      settlement: { status: 'settled', txHash: expect.stringMatching(/^0x[0-9a-fA-F]+$/) },
    });
    expect(Number.isInteger(read.body.data.executionTime)).toBe(true);
  });

  it('without the payment header, the read has a message and no output; another payment reads none', async () => {
    const r = await executeOk(m, payer, body());
    const id = r.body.data.requestId;
    const bare = await api(m, 'GET', `/api/v1/execute/${id}`);
    expectStatus(bare, 200);
    expect(bare.body.data).toMatchObject({ requestId: id, status: 'completed', message: expect.any(String) });
    expect(bare.body.data).not.toHaveProperty('output');
    const other = await paymentHeader(newWallet(), r.accept);
    const stranger = await api(m, 'GET', `/api/v1/execute/${id}`, { headers: { 'X-PAYMENT': other } });
    expect(stranger.body?.data?.output).toBeUndefined();
  });
});

describe('Cost calculation', () => {
  it('asks the platform fee plus the agent fee and credits the agent 95% of its fee', async () => {
    const accept = await requirement(m, 'POST', '/api/v1/execute', body());
    expect(accept.maxAmountRequired).toBe('11000');
    const before = await earned(m, agentId);
    await executeOk(m, payer, body());
    expect(await earned(m, agentId)).toBe(before + 9_500n);
  });
});

describe('Execution', () => {
  it('calls endpoints.execution with {requestId, capabilityId, input}, X-Request-ID and X-Agora-Signature', async () => {
    const r = await executeOk(m, payer, body({ text: 'bonjour' }));
    const requestId = r.body.data.requestId;
    const call = agent.calls.find((c) => c.body?.requestId === requestId);
    expect(call?.body).toMatchObject({ requestId, capabilityId: 'translate', input: { text: 'bonjour' } });
    expect(call?.headers['x-request-id']).toBe(requestId);
    // docs/sdk.md "Verifying a call without the SDK": t=<s>,ed25519=<base64> over the labelled text.
    const sig = /^t=(\d{1,12}),ed25519=([A-Za-z0-9+/=]+)$/.exec(String(call?.headers['x-agora-signature']));
    expect(sig).not.toBeNull();
    const keys = await api(m, 'GET', '/api/v1/platform/keys');
    const sha = createHash('sha256').update(call!.raw, 'utf8').digest('hex');
    const text = Buffer.from(`agora-call.v2.${sig![1]}.${agentId.toLowerCase()}.${requestId}.${sha}`, 'utf8');
    const verified = keys.body.data.keys.some((k: { publicKey: string }) => {
      const der = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(k.publicKey, 'base64')]);
      const key = createPublicKey({ key: der, format: 'der', type: 'spki' });
      return verify(null, text, key, Buffer.from(sig![2], 'base64'));
    });
    expect(verified).toBe(true);
  });

  it('refuses a body without targetAgentId (400) before payment: that payment then pays a valid request', async () => {
    const accept = await requirement(m, 'POST', '/api/v1/execute', body());
    const payment = await paymentHeader(payer, accept);
    const calls = agent.calls.length;
    const { targetAgentId: _omitted, ...invalid } = body();
    const r = await api(m, 'POST', '/api/v1/execute', { body: invalid, headers: { 'X-PAYMENT': payment } });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
    expect(agent.calls.length).toBe(calls);
    const ok = await api(m, 'POST', '/api/v1/execute', { body: body(), headers: { 'X-PAYMENT': payment } });
    expectStatus(ok, 200, 'the unused payment:');
    expect(ok.body.data.status).toBe('completed');
  });

  it('refuses input that fails inputSchema with 422 INPUT_SCHEMA_MISMATCH, charging nothing', async () => {
    const accept = await requirement(m, 'POST', '/api/v1/execute', body());
    const payment = await paymentHeader(payer, accept);
    const before = await earned(m, agentId);
    const r = await api(m, 'POST', '/api/v1/execute', { body: body({ text: 42 }), headers: { 'X-PAYMENT': payment } });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ code: 'INPUT_SCHEMA_MISMATCH', details: { errors: expect.any(Array) } });
    expect(await earned(m, agentId)).toBe(before);
    const ok = await api(m, 'POST', '/api/v1/execute', { body: body(), headers: { 'X-PAYMENT': payment } });
    expectStatus(ok, 200, 'the unused payment:');
  });

  it('answers 404 CAPABILITY_NOT_FOUND and AGENT_NOT_FOUND, paid or not', async () => {
    const accept = await requirement(m, 'POST', '/api/v1/execute', body());
    const headers = { 'X-PAYMENT': await paymentHeader(payer, accept) };
    const noCap = await api(m, 'POST', '/api/v1/execute', { body: { ...body(), capabilityId: 'nope' }, headers });
    expect([noCap.status, noCap.body.error?.code]).toEqual([404, 'CAPABILITY_NOT_FOUND']);
    const stranger = { ...body(), targetAgentId: '6f1c2a5e-1111-4222-8333-944455556666' };
    const noAgent = await api(m, 'POST', '/api/v1/execute', { body: stranger, headers });
    expect([noAgent.status, noAgent.body.error?.code]).toEqual([404, 'AGENT_NOT_FOUND']);
    const unpaid = await api(m, 'POST', '/api/v1/execute', { body: stranger });
    expect([unpaid.status, unpaid.body.error?.code]).toEqual([404, 'AGENT_NOT_FOUND']);
    const ok = await api(m, 'POST', '/api/v1/execute', { body: body(), headers });
    expectStatus(ok, 200, 'the unused payment:');
  });

  it('answers 404 AGENT_NOT_FOUND for an inactive agent', async () => {
    const owner = newWallet();
    const other = await registerAgent(m, owner, { endpoints: { execution: agent.url } });
    const path = `/api/v1/agents/${other.id}`;
    const signature = await boundAgentSignature(owner, other.id, 'DELETE', path);
    const del = await api(m, 'DELETE', path, {
      headers: { 'X-Agent-Wallet': owner.address, 'X-Agent-Signature': signature },
    });
    expectStatus(del, 200, 'DELETE agent:');
    const r = await api(m, 'POST', '/api/v1/execute', {
      body: { targetAgentId: other.id, capabilityId: 'echo', input: {} },
    });
    expect([r.status, r.body.error?.code]).toEqual([404, 'AGENT_NOT_FOUND']);
  });

  it('answers an agent failure with 502 EXECUTION_FAILED and details.agentError, charging nothing', async () => {
    agent.handler = () => ({ status: 500, body: { error: 'translator on fire' } });
    const before = await earned(m, agentId);
    const r = await execute(m, payer, body());
    expect(r.status).toBe(502);
    expect(r.body.error).toMatchObject({ code: 'EXECUTION_FAILED', details: { agentError: expect.any(String) } });
    expect(r.body.error.details.requestId).toMatch(/^req_/);
    expect(r.body.error.details.transactionId ?? null).toBeNull();
    expect(await earned(m, agentId)).toBe(before);
    const read = await api(m, 'GET', `/api/v1/execute/${r.body.error.details.requestId}`);
    expect(read.body.data.status).toBe('failed');
  });

  it('retries a failed execution with POST /execute/:requestId/retry (no request data), paid once', async () => {
    agent.handler = () => ({ status: 500, body: { error: 'not yet' } });
    const failed = await execute(m, payer, body());
    expect(failed.status).toBe(502);
    const requestId = failed.body.error.details.requestId;
    const before = await earned(m, agentId);
    agent.handler = upper;
    // The spec's retry takes no request data: the stored, still-unused authorization pays for it.
    const retried = await api(m, 'POST', `/api/v1/execute/${requestId}/retry`);
    expectStatus(retried, 200, 'retry:');
    expect(retried.body.data).toMatchObject({ requestId, status: 'completed' });
    expect(retried.body.data.cost).toMatchObject({ agentFee: '0.010000', platformFee: '0.001000' });
    expect(await earned(m, agentId)).toBe(before + 9_500n);
    const read = await api(m, 'GET', `/api/v1/execute/${requestId}`, { headers: { 'X-PAYMENT': failed.payment } });
    expect(read.body.data).toMatchObject({ status: 'completed', output: { text: 'HOLA' } });
    // The authorization paid once: sent again for a new request, it is a replay.
    const again = await api(m, 'POST', '/api/v1/execute', {
      body: body({ text: 'x' }),
      headers: { 'X-PAYMENT': failed.payment },
    });
    expect([again.status, again.body.error?.code]).toEqual([409, 'PAYMENT_REPLAYED']);
  });

  it('treats output that fails outputSchema as EXECUTION_FAILED, charging nothing', async () => {
    agent.handler = () => ({ body: { output: { text: 7 } } });
    const before = await earned(m, agentId);
    const r = await execute(m, payer, body());
    expect([r.status, r.body.error?.code]).toEqual([502, 'EXECUTION_FAILED']);
    expect(typeof r.body.error.details.agentError).toBe('string');
    expect(await earned(m, agentId)).toBe(before);
  });

  it('runs async=true: 202 {jobId = requestId, status pending, statusUrl}, and the status URL gives the result', async () => {
    agent.handler = (req) => ({ ...upper(req), delayMs: 300 });
    const r = await execute(m, payer, body(), { path: '/api/v1/execute?async=true' });
    expect(r.status).toBe(202);
    const { jobId, status, statusUrl } = r.body.data;
    expect(jobId).toMatch(/^req_/);
    expect(status).toBe('pending');
    expect(new URL(statusUrl, m.baseUrl).pathname).toBe(`/api/v1/execute/${jobId}`);
    const done = await poll(
      () => api(m, 'GET', new URL(statusUrl, m.baseUrl).toString(), { headers: { 'X-PAYMENT': r.payment } }),
      (x) => x.body?.data?.status === 'completed',
      'the async execution to complete',
    );
    expect(done.body.data).toMatchObject({ requestId: jobId, output: { text: 'HOLA' } });
  });

  it('carries X-RateLimit-Agent-Remaining and X-RateLimit-Client-Remaining on execute responses', async () => {
    const first = await executeOk(m, payer, body());
    const second = await executeOk(m, payer, body());
    for (const r of [first, second, first.required]) {
      expect(r.headers.get('x-ratelimit-agent-remaining')).toMatch(/^\d+$/);
      expect(r.headers.get('x-ratelimit-client-remaining')).toMatch(/^\d+$/);
    }
    const remaining = (r: typeof first) => Number(r.headers.get('x-ratelimit-client-remaining'));
    expect(remaining(second)).toBeLessThan(remaining(first));
  });

  it.each(['callbackUrl', 'webhookUrl'])('posts {requestId, status, output} to the %s when complete', async (field) => {
    const receiver = await startAgentServer(() => ({ body: { ok: true } }));
    try {
      const r = await executeOk(m, payer, body({ text: 'callback' }, { [field]: receiver.url }));
      const requestId = r.body.data.requestId;
      await poll(
        async () => receiver.calls,
        (calls) => calls.length > 0,
        `a POST to the ${field}`,
      );
      expect(receiver.calls[0].body).toMatchObject({ requestId, status: 'completed', output: { text: 'CALLBACK' } });
    } finally {
      await receiver.close();
    }
  });
});
