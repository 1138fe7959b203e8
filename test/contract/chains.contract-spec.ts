/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: execution chains (spec §4 "Execution chains", §2 "Chain token", §7 chain errors, resolutions §5): opening
 * a chain on a root execute, the token the root agent gets, sub-calls paid from the budget, every refusal.
 */
import { Wallet } from 'ethers';
import { echo } from './support/agent-server';
import {
  callsOnce,
  ChainAgent,
  chainAgent,
  decodeToken,
  openChain,
  setChainSettings,
  subCall,
  tamper,
  tokenOf,
  tokenVerifies,
} from './support/chains';
import { api, expectStatus, PaidReply, poll, Reply } from './support/http';
import { ISO_8601, SIX_DECIMALS, UUID } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { newWallet, paymentHeader } from './support/wallets';

/** Tokens live 3 s here (CHAIN_TOKEN_TTL_S), so that one can be seen to expire. */
const TTL_S = 3;
let m: Marketplace;
let root: ChainAgent, b: ChainAgent, c: ChainAgent, disabled: ChainAgent, blocking: ChainAgent, dear: ChainAgent;
let payer: Wallet;

beforeAll(async () => {
  m = await startMarketplace({ env: { CHAIN_TOKEN_TTL_S: String(TTL_S) } });
  [root, b, c, disabled, blocking, dear] = await Promise.all(
    ['0.010000', '0.020000', '0.030000', '0.010000', '0.010000', '0.500000'].map((p) => chainAgent(m, p)),
  );
  await setChainSettings(m, disabled, { chain_enabled: false });
  await setChainSettings(m, blocking, { chain_blocked_callers: [root.id] });
}, 120_000);
beforeEach(() => {
  payer = newWallet();
  for (const a of [root, b, c, disabled, blocking, dear]) a.server.handler = echo;
});
afterAll(async () => {
  await Promise.all([root, b, c, disabled, blocking, dear].map((a) => a?.server.close()));
  await m?.stop();
});

describe('Execution chains', () => {
  const subs: Reply[] = [];
  let rootReply: PaidReply;
  beforeAll(async () => {
    root.server.handler = callsOnce(m, () => b.id, subs);
    rootReply = await openChain(m, newWallet(), root, { budget: '1.00', maxDepth: 3 });
    expectStatus(rootReply, 200, 'chain root:');
  });

  it('asks one payment for the root cost plus the budget', () => {
    expect(rootReply.accept.maxAmountRequired).toBe('1011000');
  });

  it('sends the root agent chain {chainId, depth, remainingBudget, token} and the same token in X-Chain-Token', () => {
    const call = root.server.calls.at(-1)!;
    expect(call.body.chain).toMatchObject({
      chainId: rootReply.body.data.chain.chainId,
      depth: 0,
      remainingBudget: '1.000000',
      token: expect.any(String),
    });
    expect(call.headers['x-chain-token']).toBe(call.body.chain.token);
  });

  it('pays a sub-call with X-Chain-Token and no payment from the budget, answering the chain object', () => {
    const [sub] = subs;
    expectStatus(sub, 200, 'sub-call:');
    expect(sub.body.data).toMatchObject({
      status: 'completed',
      cost: { agentFee: '0.020000', platformFee: '0.001000' },
    });
    expect(sub.body.data.chain).toMatchObject({
      chainId: rootReply.body.data.chain.chainId,
      depth: 1,
      remainingBudget: '0.979000',
      childToken: expect.any(String),
    });
    expect(b.server.calls.at(-1)!.body.chain).toMatchObject({ depth: 1, chainId: rootReply.body.data.chain.chainId });
  });

  it('answers the root with the chain object: chainId (UUID), depth 0, what is left and a childToken', () => {
    expect(rootReply.body.data.chain).toMatchObject({
      chainId: expect.stringMatching(UUID),
      depth: 0,
      remainingBudget: '0.979000',
      childToken: expect.any(String),
    });
  });
});

describe('Chain token', () => {
  it('carries cid, d, md, rb, tb, pa, rw, sa and exp, signed with a key of GET /chains/keys', async () => {
    root.server.handler = callsOnce(m, () => b.id, []);
    const r = await openChain(m, payer, root, { budget: '2.50', maxDepth: 2 });
    expectStatus(r, 200, 'chain root:');
    const token = tokenOf(root.server.calls.at(-1)!);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const p = decodeToken(token);
    expect(p).toMatchObject({ cid: r.body.data.chain.chainId, d: 0, md: 2, pa: null });
    expect(p.rb).toMatch(/^\d+(\.\d+)?$/);
    expect(p.tb).toMatch(/^2\.50*$/);
    expect(p.rw.toLowerCase()).toBe(payer.address.toLowerCase());
    expect(p.sa).toMatch(ISO_8601);
    expect(p.exp).toBeGreaterThan(Date.now() - 5_000);
    expect(p.exp).toBeLessThanOrEqual(Date.now() + TTL_S * 1000);
    expect(await tokenVerifies(m, token)).toBe(true);
    const child = decodeToken(tokenOf(b.server.calls.at(-1)!));
    expect(child).toMatchObject({ cid: p.cid, d: 1, md: 2, pa: root.id });
  });
});

describe('Errors', () => {
  /** Opens a chain whose root calls `target` once; the sub-call's reply. */
  async function rootCalls(target: ChainAgent, chain: Record<string, unknown> = { budget: '1.00' }): Promise<Reply> {
    const replies: Reply[] = [];
    root.server.handler = callsOnce(m, () => target.id, replies);
    expectStatus(await openChain(m, payer, root, chain), 200, 'chain root:');
    expect(replies).toHaveLength(1);
    return replies[0];
  }

  it('answers a call deeper than maxDepth with 400 DEPTH_LIMIT {currentDepth, maxDepth}', async () => {
    const deep: Reply[] = [];
    b.server.handler = callsOnce(m, () => c.id, deep);
    expectStatus(await rootCalls(b, { budget: '1.00', maxDepth: 1 }), 200, 'depth 1:');
    expect([deep[0].status, deep[0].body.error?.code]).toEqual([400, 'DEPTH_LIMIT']);
    expect(deep[0].body.error.details).toMatchObject({ currentDepth: 2, maxDepth: 1 });
  });

  it('answers a call to an agent already on the path with 400 CIRCULAR_DEPENDENCY {chain}', async () => {
    const back: Reply[] = [];
    b.server.handler = callsOnce(m, () => root.id, back);
    const replies: Reply[] = [];
    root.server.handler = async (req) =>
      replies.length === 0 ? callsOnce(m, () => b.id, replies)(req) : { body: { output: {} } };
    expectStatus(await openChain(m, payer, root, { budget: '1.00' }), 200, 'chain root:');
    expect([back[0].status, back[0].body.error?.code]).toEqual([400, 'CIRCULAR_DEPENDENCY']);
    expect(back[0].body.error.details.chain).toEqual([root.id, b.id, root.id]);
  });

  it('answers a call costing more than the remaining budget with 402 BUDGET_EXCEEDED', async () => {
    const r = await rootCalls(dear, { budget: '0.01' });
    expect([r.status, r.body.error?.code]).toEqual([402, 'BUDGET_EXCEEDED']);
    expect(r.body.error.details).toMatchObject({ estimated: '0.501000', remaining: '0.010000', shortfall: '0.491000' });
    for (const v of ['estimated', 'remaining', 'shortfall']) expect(r.body.error.details[v]).toMatch(SIX_DECIMALS);
  });

  it('answers a call to an agent with chain_enabled false with 403 CHAIN_DISABLED', async () => {
    const r = await rootCalls(disabled);
    expect([r.status, r.body.error?.code]).toEqual([403, 'CHAIN_DISABLED']);
  });

  it('answers a call from a caller the target blocks with 403 AGENT_NOT_CHAINABLE', async () => {
    const r = await rootCalls(blocking);
    expect([r.status, r.body.error?.code]).toEqual([403, 'AGENT_NOT_CHAINABLE']);
  });

  it('refuses to open a chain on an agent with chaining disabled with 403 CHAIN_DISABLED', async () => {
    const body = { targetAgentId: disabled.id, capabilityId: 'echo', input: {}, chain: { budget: '1.00' } };
    let r = await api(m, 'POST', '/api/v1/execute', { body });
    // A client pays when asked to; the refusal may come before or after the payment.
    if (r.status === 402) {
      const payment = await paymentHeader(payer, r.body.accepts[0]);
      r = await api(m, 'POST', '/api/v1/execute', { body, headers: { 'X-PAYMENT': payment } });
    }
    expect([r.status, r.body.error?.code]).toEqual([403, 'CHAIN_DISABLED']);
    expect(disabled.server.calls.length).toBe(0);
  });

  it('answers a token whose payload was changed, or that is no token, with 401 CHAIN_TOKEN_INVALID', async () => {
    const [replies, calls] = [[] as Reply[], b.server.calls.length];
    root.server.handler = async (req) => {
      replies.push(await subCall(m, tamper(tokenOf(req), { rb: '999.000000' }), b.id));
      replies.push(await subCall(m, 'not.a-token', b.id));
      return { body: { output: {} } };
    };
    expectStatus(await openChain(m, payer, root, { budget: '1.00' }), 200, 'chain root:');
    for (const r of replies) expect([r.status, r.body.error?.code]).toEqual([401, 'CHAIN_TOKEN_INVALID']);
    expect(b.server.calls.length).toBe(calls);
  });

  it('answers a token past its expiry with 401 CHAIN_TOKEN_EXPIRED', async () => {
    const replies: Reply[] = [];
    root.server.handler = async (req) => {
      const token = tokenOf(req);
      await poll(
        async () => Date.now(),
        (now) => now > decodeToken(token).exp + 100,
        'the token to expire',
      );
      replies.push(await subCall(m, token, b.id));
      return { body: { output: {} } };
    };
    expectStatus(await openChain(m, payer, root, { budget: '1.00' }), 200, 'chain root:');
    expect([replies[0].status, replies[0].body.error?.code]).toEqual([401, 'CHAIN_TOKEN_EXPIRED']);
  });

  it('answers an unknown chain with 404 CHAIN_NOT_FOUND', async () => {
    const r = await api(m, 'GET', '/api/v1/chains/7d0e5a43-2f6b-4c1e-9a8d-3b2c1d0e9f87');
    expect([r.status, r.body.error?.code]).toEqual([404, 'CHAIN_NOT_FOUND']);
  });
});
