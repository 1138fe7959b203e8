/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: the error codes of spec §7 and resolutions §10 that need time to pass: CHAIN_TIMEOUT (408, a chain older
 * than its limit), EXECUTION_TIMEOUT (504, resolutions §2 and §4: nothing charged, status timeout),
 * DISPUTE_WINDOW_CLOSED (409, resolutions §7), and EXECUTION_NOT_FOUND (404).
 *
 * The durations are short here, as the resolutions' configuration table allows: CHAIN_TIMEOUT_S 2,
 * EXECUTION_TIMEOUT_MS 4000 (longer than the chain limit, so a chain's root agent outlives its chain),
 * DISPUTE_FILING_WINDOW_S 3.
 */
import { randomInt } from 'node:crypto';
import { AgentServer, startAgentServer } from './support/agent-server';
import { ChainAgent, chainAgent, decodeToken, openChain, subCall, tokenOf } from './support/chains';
import { file, sell } from './support/disputes';
import { api, expectStatus, poll, Reply } from './support/http';
import { balance, execute, executeOk, micro, registerAgent } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { clientHeaders, newWallet } from './support/wallets';

const CHAIN_TIMEOUT_S = 2;
const EXECUTION_TIMEOUT_MS = 4000;
const DISPUTE_FILING_WINDOW_S = 3;

let m: Marketplace;
let agentServer: AgentServer;
beforeAll(async () => {
  m = await startMarketplace({
    env: {
      CHAIN_TIMEOUT_S: String(CHAIN_TIMEOUT_S),
      EXECUTION_TIMEOUT_MS: String(EXECUTION_TIMEOUT_MS),
      DISPUTE_FILING_WINDOW_S: String(DISPUTE_FILING_WINDOW_S),
    },
  });
  agentServer = await startAgentServer();
}, 120_000);
afterAll(async () => {
  await agentServer?.close();
  await m?.stop();
});

/** Waits (polling the clock, with a deadline) until `epochMs` has passed. */
const untilPast = (epochMs: number, what: string) =>
  poll(
    async () => Date.now(),
    (now) => now > epochMs,
    what,
    60_000,
  );

/** An id of the same form as `real` (its prefix, length and alphabet) that names nothing. */
function unknownLike(real: string): string {
  const [prefix, rest] = [real.slice(0, real.indexOf('_') + 1), real.slice(real.indexOf('_') + 1)];
  const alphabet = /^[0-9a-f]+$/.test(rest)
    ? '0123456789abcdef'
    : 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  for (;;) {
    const id = prefix + Array.from(rest, () => alphabet[randomInt(alphabet.length)]).join('');
    if (id !== real) return id;
  }
}

async function totals(): Promise<{ transactions: number; volume: string }> {
  const r = await api(m, 'GET', '/api/v1/payments/stats');
  expectStatus(r, 200, 'stats:');
  return { transactions: r.body.data.totalTransactions, volume: r.body.data.totalVolume };
}

describe('Errors', () => {
  it('GET /execute/:requestId of a well-formed unknown request id is EXECUTION_NOT_FOUND (404)', async () => {
    const agentId = (await registerAgent(m, newWallet(), { endpoints: { execution: agentServer.url } })).id;
    const real = (await executeOk(m, newWallet(), { targetAgentId: agentId, capabilityId: 'echo', input: {} })).body
      .data.requestId as string;
    expect(real).toMatch(/^req_/);
    const unknown = unknownLike(real);
    const r = await api(m, 'GET', `/api/v1/execute/${unknown}`);
    expect([r.status, r.body.success, r.body.error?.code]).toEqual([404, false, 'EXECUTION_NOT_FOUND']);
    // The real one, read the same way, is there: the 404 is about the id.
    expectStatus(await api(m, 'GET', `/api/v1/execute/${real}`), 200, 'GET the real execution:');
  });

  it('POST /execute/:requestId/retry of a well-formed unknown request id is EXECUTION_NOT_FOUND (404)', async () => {
    const agentId = (await registerAgent(m, newWallet(), { endpoints: { execution: agentServer.url } })).id;
    const real = (await executeOk(m, newWallet(), { targetAgentId: agentId, capabilityId: 'echo', input: {} })).body
      .data.requestId as string;
    const r = await api(m, 'POST', `/api/v1/execute/${unknownLike(real)}/retry`);
    expect([r.status, r.body.success, r.body.error?.code]).toEqual([404, false, 'EXECUTION_NOT_FOUND']);
  });

  it('a chain older than its limit (CHAIN_TIMEOUT_S) refuses a sub-call with 408 CHAIN_TIMEOUT', async () => {
    const leaf: ChainAgent = await chainAgent(m, '0.010000');
    const replies: Reply[] = [];
    const root = await chainAgent(m, '0.010000', async (req) => {
      const token = tokenOf(req);
      // In time: the chain takes the call.
      replies.push(await subCall(m, token, leaf.id, { when: 'in time' }));
      // The token lives 30 s (CHAIN_TOKEN_TTL_S is not changed here); the chain, CHAIN_TIMEOUT_S from its start.
      await untilPast(Date.parse(decodeToken(token).sa) + CHAIN_TIMEOUT_S * 1000 + 300, 'the chain time limit');
      replies.push(await subCall(m, token, leaf.id, { when: 'late' }));
      return { body: { output: { done: true } } };
    });
    try {
      await openChain(m, newWallet(), root, { budget: '1.00' });
      expect(replies).toHaveLength(2);
      expectStatus(replies[0], 200, 'the sub-call in time:');
      expect(replies[1].status).toBe(408);
      expect(replies[1].body).toMatchObject({ success: false, error: { code: 'CHAIN_TIMEOUT' } });
      expect(leaf.server.calls.map((c) => c.body?.input?.when)).toEqual(['in time']);
    } finally {
      await Promise.all([root.server.close(), leaf.server.close()]);
    }
  });

  it('an agent silent past EXECUTION_TIMEOUT_MS is EXECUTION_TIMEOUT (504); nothing is charged', async () => {
    let answer: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (answer = resolve));
    const silent = await startAgentServer(async () => {
      await gate;
      return { body: { output: { late: true } } };
    });
    try {
      const agentId = (await registerAgent(m, newWallet(), { endpoints: { execution: silent.url } })).id;
      const before = await totals();
      const started = Date.now();
      const r = await execute(m, newWallet(), { targetAgentId: agentId, capabilityId: 'echo', input: { q: 1 } });
      expect(r.status).toBe(504);
      expect(r.body).toMatchObject({ success: false, error: { code: 'EXECUTION_TIMEOUT' } });
      expect(Date.now() - started).toBeGreaterThanOrEqual(EXECUTION_TIMEOUT_MS - 100);
      expect(silent.calls).toHaveLength(1);
      const requestId = r.body.error.details?.requestId;
      expect(requestId).toMatch(/^req_/);
      const read = await poll(
        () => api(m, 'GET', `/api/v1/execute/${requestId}`),
        (x) => x.body?.data?.status === 'timeout',
        'status timeout',
      );
      expect(read.body.data.requestId).toBe(requestId);
      expect(await balance(m, agentId)).toMatchObject({ available: '0.000000', pending: '0.000000' });
      expect((await balance(m, agentId)).totalEarned).toBe('0.000000');
      expect(await totals()).toEqual(before);
    } finally {
      answer();
      await silent.close();
    }
  });

  it('a timed-out execution is retried with its stored authorization and charged once', async () => {
    let answer: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (answer = resolve));
    let silent = true;
    const agent = await startAgentServer(async (req) => {
      if (silent) await gate;
      return { body: { output: { echo: req.body?.input } } };
    });
    try {
      const agentId = (await registerAgent(m, newWallet(), { endpoints: { execution: agent.url } })).id;
      const r = await execute(m, newWallet(), { targetAgentId: agentId, capabilityId: 'echo', input: { q: 2 } });
      expect([r.status, r.body.error?.code]).toEqual([504, 'EXECUTION_TIMEOUT']);
      silent = false;
      const retried = await api(m, 'POST', `/api/v1/execute/${r.body.error.details.requestId}/retry`);
      expectStatus(retried, 200, 'retry:');
      expect(retried.body.data.status).toBe('completed');
      const b = await balance(m, agentId);
      expect(micro(b.pending) + micro(b.available)).toBe(9_500n);
    } finally {
      answer();
      await agent.close();
    }
  });

  it('filing after DISPUTE_FILING_WINDOW_S is DISPUTE_WINDOW_CLOSED (409); within it, 201', async () => {
    const inTime = await sell(m, agentServer);
    expectStatus(await file(m, inTime.txId, { 'X-PAYMENT': inTime.run.payment }), 201, 'filing in time:');
    const late = await sell(m, agentServer);
    const soldAt = Date.now();
    await untilPast(soldAt + DISPUTE_FILING_WINDOW_S * 1000 + 500, 'the filing window to close');
    for (const headers of [{ 'X-PAYMENT': late.run.payment }, await clientHeaders(late.payer, late.txId)]) {
      const r = await file(m, late.txId, headers);
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ success: false, error: { code: 'DISPUTE_WINDOW_CLOSED' } });
    }
    expect((await balance(m, late.agentId)).totalDisputed).toBe('0.000000');
    const list = await api(m, 'GET', `/api/v1/disputes/agent/${late.agentId}`);
    expect(list.body.data.total).toBe(0);
  });
});
