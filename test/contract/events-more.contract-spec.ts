/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: the event data table (spec §6) for the events events.contract-spec.ts leaves out: dispute.filed,
 * dispute.resolved, escrow.released, and withdrawal.completed with the fields resolutions §6 gives it; delivered
 * to a loopback receiver subscribed with the spec-form wallet signature. Retries: webhooks-retry.contract-spec.ts.
 */
import { Wallet } from 'ethers';
import { AgentRequest, AgentServer, startAgentServer } from './support/agent-server';
import { file, resolve, Sale, sell } from './support/disputes';
import { api, expectStatus, poll } from './support/http';
import { capability, executeOk, getAgent, ISO_8601, registerAgent } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { agentHeaders, newWallet } from './support/wallets';

let m: Marketplace;
let agentServer: AgentServer;
let receiver: AgentServer;
/** The first sale of the agent whose disputes are watched (later sales are of the same agent). */
let disputed: Sale;

beforeAll(async () => {
  m = await startMarketplace();
  agentServer = await startAgentServer();
  receiver = await startAgentServer(() => ({ body: { received: true } }));
  disputed = await sell(m, agentServer);
  await subscribe(disputed.wallet, disputed.agentId, ['dispute.filed', 'dispute.resolved']);
}, 120_000);
afterAll(async () => {
  await Promise.all([agentServer?.close(), receiver?.close()]);
  await m?.stop();
});

async function subscribe(wallet: Wallet, agentId: string, events: string[]): Promise<void> {
  const r = await api(m, 'POST', '/api/v1/webhooks', {
    body: { agentId, url: receiver.url, events },
    headers: await agentHeaders(wallet, agentId),
  });
  expectStatus(r, 201, 'subscribe:');
}

/** Waits for the delivery of a `type` event whose data satisfies `match`; returns it. */
async function delivered(type: string, match: (data: any) => boolean): Promise<AgentRequest> {
  const find = () => receiver.calls.find((c) => c.body?.type === type && match(c.body?.data ?? {}));
  await poll(
    async () => find(),
    (found) => found !== undefined,
    `a ${type} delivery`,
    30_000,
  );
  const delivery = find()!;
  expect(delivery.body).toMatchObject({ id: expect.stringMatching(/^evt_/), type });
  expect(delivery.body.timestamp).toMatch(ISO_8601);
  return delivery;
}

/** A new agent with a 2.00 capability (earnings 1.900000 a run), subscribed to escrow and withdrawal events. */
async function earner(): Promise<{ id: string; wallet: Wallet }> {
  const wallet = newWallet();
  const pricing = { model: 'per-request', basePrice: '2.00', currency: 'USDC' };
  const { id } = await registerAgent(m, wallet, {
    endpoints: { execution: agentServer.url },
    capabilities: [capability({ pricing })],
  });
  await subscribe(wallet, id, ['escrow.released', 'withdrawal.completed']);
  return { id, wallet };
}

async function sale(agentId: string): Promise<string> {
  const r = await executeOk(m, newWallet(), { targetAgentId: agentId, capabilityId: 'echo', input: { q: 'earn' } });
  return r.body.data.transactionId;
}

const score = async (agentId: string): Promise<number> => (await getAgent(m, agentId)).reputation_score;

describe('Event data', () => {
  it('gives dispute.filed disputeId, transactionId, reason and respondBy', async () => {
    const s = await sell(m, agentServer, disputed);
    const r = await file(m, s.txId, { 'X-PAYMENT': s.run.payment }, { reason: 'The numbers were wrong' });
    expectStatus(r, 201, 'file:');
    const filed = r.body.data;
    const { body } = await delivered('dispute.filed', (d) => d.disputeId === filed.disputeId);
    expect(body.data).toMatchObject({
      disputeId: filed.disputeId,
      transactionId: s.txId,
      reason: 'The numbers were wrong',
    });
    expect(body.data.respondBy).toMatch(ISO_8601);
    expect(Date.parse(body.data.respondBy)).toBe(Date.parse(filed.respondBy));
  });

  it.each([
    ['agent_wins', 2],
    ['client_wins', -5],
    ['split', 0],
  ])('gives dispute.resolved disputeId, resolution %s and reputationDelta %i', async (outcome, delta) => {
    const s = await sell(m, agentServer, disputed);
    const filed = await file(m, s.txId, { 'X-PAYMENT': s.run.payment });
    expectStatus(filed, 201, 'file:');
    const disputeId = filed.body.data.disputeId;
    const before = await score(s.agentId);
    expectStatus(await resolve(m, disputeId, { resolution: outcome }), 200, 'resolve:');
    const { body } = await delivered('dispute.resolved', (d) => d.disputeId === disputeId);
    expect(body.data).toEqual(expect.objectContaining({ disputeId, resolution: outcome, reputationDelta: delta }));
    expect(Number.isInteger(body.data.reputationDelta)).toBe(true);
    // The delta is the change the resolution made to the score.
    expect(await score(s.agentId)).toBe(before + (delta as number));
  });

  it('gives escrow.released transactionId, amount and newAvailableBalance', async () => {
    const a = await earner();
    const txId = await sale(a.id);
    const { body } = await delivered('escrow.released', (d) => d.transactionId === txId);
    expect(body.data).toMatchObject({ transactionId: txId, amount: '1.900000', newAvailableBalance: '1.900000' });
  });

  it('withdrawal.completed: withdrawalId, agentId, amount, fee, netAmount, destinationWallet, txHash', async () => {
    const a = await earner();
    const first = await sale(a.id);
    await delivered('escrow.released', (d) => d.transactionId === first);
    const destination = newWallet().address;
    const w = await api(m, 'POST', '/api/v1/payments/withdraw', {
      body: { agentId: a.id, amount: '1.50', destinationWallet: destination },
      headers: await agentHeaders(a.wallet, a.id),
    });
    expectStatus(w, 201, 'withdraw:');
    const withdrawalId = w.body.data.withdrawalId;
    const done = await poll(
      () => api(m, 'GET', `/api/v1/payments/withdrawal/${withdrawalId}`),
      (x) => x.body?.data?.status === 'completed',
      'the withdrawal completed',
      30_000,
    );
    const { body } = await delivered('withdrawal.completed', (d) => d.withdrawalId === withdrawalId);
    expect(body.data).toMatchObject({
      withdrawalId,
      agentId: a.id,
      amount: '1.500000',
      fee: '0.100000',
      netAmount: '1.400000',
      txHash: done.body.data.tx_hash,
    });
    expect(typeof body.data.txHash).toBe('string');
    expect(String(body.data.destinationWallet).toLowerCase()).toBe(destination.toLowerCase());
    // The next release reports the balance it leaves: 0.400000 left after the withdrawal, plus 1.900000.
    const second = await sale(a.id);
    const next = await delivered('escrow.released', (d) => d.transactionId === second);
    expect(next.body.data).toMatchObject({ amount: '1.900000', newAvailableBalance: '2.300000' });
  });
});
