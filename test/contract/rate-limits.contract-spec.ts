/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: the execution rate limits (spec §4 "Execution" rule 5, spec §8 "Limits", resolutions §4 and §10): a
 * sliding window per client wallet (the payer, authorization.from) and per target agent, X-RateLimit-Client-
 * Remaining and X-RateLimit-Agent-Remaining counting down, RATE_LIMITED (429) with Retry-After beyond them.
 *
 * Small quotas here (RATE_LIMIT_CLIENT_PER_MIN 3, RATE_LIMIT_AGENT_PER_MIN 5). Unpaid execute requests count per
 * IP, so the tests ask for the payment requirement once and sign every payment from it.
 */
import { Wallet } from 'ethers';
import { AgentServer, startAgentServer } from './support/agent-server';
import { api, expectStatus, Reply, requirement } from './support/http';
import { balance, micro, registerAgent } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { Accept, newWallet, paymentHeader } from './support/wallets';

const CLIENT_PER_MIN = 3;
const AGENT_PER_MIN = 5;

let m: Marketplace;
let agentServer: AgentServer;
/** accepts[0] of the 402 of an execution of any agent here (they share one price): what every payment signs. */
let accept: Accept;

beforeAll(async () => {
  m = await startMarketplace({
    env: { RATE_LIMIT_CLIENT_PER_MIN: String(CLIENT_PER_MIN), RATE_LIMIT_AGENT_PER_MIN: String(AGENT_PER_MIN) },
  });
  agentServer = await startAgentServer();
  const first = await agent();
  accept = await requirement(m, 'POST', '/api/v1/execute', run(first));
}, 120_000);
afterAll(async () => {
  await agentServer?.close();
  await m?.stop();
});

/** A new agent (default price 0.01) on the shared echo server. */
async function agent(): Promise<string> {
  return (await registerAgent(m, newWallet(), { endpoints: { execution: agentServer.url } })).id;
}

const run = (agentId: string) => ({ targetAgentId: agentId, capabilityId: 'echo', input: { n: agentId } });

/** One paid execute of `agentId` by `payer`, with a fresh authorization signed from the shared requirement. */
async function paidRun(payer: Wallet, agentId: string): Promise<Reply> {
  return api(m, 'POST', '/api/v1/execute', {
    body: run(agentId),
    headers: { 'X-PAYMENT': await paymentHeader(payer, accept) },
  });
}

/** What the agent has earned (escrowed or available: a release may happen meanwhile) and its execution count. */
async function earnings(agentId: string): Promise<[bigint, number]> {
  const b = await balance(m, agentId);
  return [micro(b.pending) + micro(b.available), b.executionCount];
}

const callsOf = (agentId: string) => agentServer.calls.filter((c) => c.body?.input?.n === agentId).length;
const clientLeft = (r: Reply) => r.headers.get('x-ratelimit-client-remaining');
const agentLeft = (r: Reply) => r.headers.get('x-ratelimit-agent-remaining');

function expectRateLimited(r: Reply): void {
  expect(r.status).toBe(429);
  expect(r.body).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
  const retryAfter = r.headers.get('retry-after');
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(60);
  // Execute responses always carry both counts, a refusal included.
  expect(clientLeft(r)).toMatch(/^\d+$/);
  expect(agentLeft(r)).toMatch(/^\d+$/);
}

describe('Limits', () => {
  it('counts a client wallet down: X-RateLimit-Client-Remaining 2, 1, 0, then 429 RATE_LIMITED', async () => {
    const target = await agent();
    const payer = newWallet();
    const seen: (string | null)[] = [];
    for (let i = 0; i < CLIENT_PER_MIN; i++) {
      const r = await paidRun(payer, target);
      expectStatus(r, 200, `execution ${i + 1}:`);
      seen.push(clientLeft(r));
    }
    expect(seen).toEqual(['2', '1', '0']);
    const earned = await earnings(target);
    const over = await paidRun(payer, target);
    expectRateLimited(over);
    expect(clientLeft(over)).toBe('0');
    // Refused: the agent was not called and nothing was charged.
    expect(callsOf(target)).toBe(CLIENT_PER_MIN);
    expect(await earnings(target)).toEqual(earned);
  });

  it('the client limit is per wallet: another wallet from the same address still executes', async () => {
    const target = await agent();
    const busy = newWallet();
    for (let i = 0; i < CLIENT_PER_MIN; i++) expectStatus(await paidRun(busy, target), 200, `busy ${i + 1}:`);
    expectRateLimited(await paidRun(busy, target));
    // The limit is the wallet's, not the target's: a fresh agent does not reopen it.
    expectRateLimited(await paidRun(busy, await agent()));
    const other = await paidRun(newWallet(), target);
    expectStatus(other, 200, 'another wallet:');
    expect(clientLeft(other)).toBe(String(CLIENT_PER_MIN - 1));
  });

  it('counts a target agent down: X-RateLimit-Agent-Remaining 4..0 over wallets, then 429 for any wallet', async () => {
    const target = await agent();
    const seen: (string | null)[] = [];
    for (let i = 0; i < AGENT_PER_MIN; i++) {
      const r = await paidRun(newWallet(), target);
      expectStatus(r, 200, `execution ${i + 1}:`);
      seen.push(agentLeft(r));
      // Each payer is new: its own window has one call in it.
      expect(clientLeft(r)).toBe(String(CLIENT_PER_MIN - 1));
    }
    expect(seen).toEqual(['4', '3', '2', '1', '0']);
    const earned = await earnings(target);
    const over = await paidRun(newWallet(), target);
    expectRateLimited(over);
    expect(agentLeft(over)).toBe('0');
    expect(callsOf(target)).toBe(AGENT_PER_MIN);
    expect(await earnings(target)).toEqual(earned);
  });

  it("one agent's full window does not limit another agent", async () => {
    const full = await agent();
    for (let i = 0; i < AGENT_PER_MIN; i++) expectStatus(await paidRun(newWallet(), full), 200, `run ${i + 1}:`);
    expectRateLimited(await paidRun(newWallet(), full));
    const r = await paidRun(newWallet(), await agent());
    expectStatus(r, 200, 'another agent:');
    expect(agentLeft(r)).toBe(String(AGENT_PER_MIN - 1));
  });
});
