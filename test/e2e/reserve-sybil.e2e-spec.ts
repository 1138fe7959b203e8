import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { fileDispute, paidExecute } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { matureSpend } from '../support/payer-spend';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

const PLATFORM_FEE = 1_000n;
const TWO = 2_000_000n;
const THREE_DAYS_S = 3 * 86_400;

/**
 * The rolling reserve's established record is money from funded payers, not runs or wallets (issue
 * 52; resolutions §6), with the defaults (RESERVE_MIN_VOLUME_MICRO 10.00, RESERVE_MIN_AGE_S three
 * days, FUNDED_PAYER_MIN_SPEND_MICRO 1.00, RESERVE_MIN_FUNDED_PAYERS 3). Before: 20 price-0 runs from
 * 5 fresh wallets and three days lifted it; the next client paid 2.001, the agent withdrew 1.90 at once,
 * and the client's dispute recovered 0.10; one payer's 10.00 to each of two owners' agents lifted both.
 * Now the attacker's volume (free runs, paid runs from wallets that paid agora nothing elsewhere, or
 * only to the attacker's own agents, or spend still disputable, or one payer's) leaves the reserve.
 */
describe('The reserve against sock puppets (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true', WITHDRAWAL_RESERVE: 'on' });
    ds = api.app.get(DataSource);
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  /** An agent of `owner` with `translate` at 2.00 and `free` at 0, its earnings released at once (score 90). */
  async function agent(owner: Wallet): Promise<string> {
    const res = await registerAgent(api, owner, {
      endpoints: { execution: agentServer.url },
      capabilities: [
        capabilityPayload({ pricing: { model: 'per-request', basePrice: '2.000000', currency: 'USDC' } }),
        capabilityPayload({ id: 'free', pricing: { model: 'per-request', basePrice: '0', currency: 'USDC' } }),
      ],
    });
    expect(res.status).toBe(201);
    await ds.query(`UPDATE agents SET reputation_score = 90 WHERE id = $1`, [res.body.data.id]);
    return res.body.data.id as string;
  }
  async function freeRun(agentId: string, payer: Wallet): Promise<void> {
    const pay = await x402Header(payer, { amount: PLATFORM_FEE, payTo: api.config.platformWallet });
    const res = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'free', input: { text: 'hi' } },
      headers: { [pay.name]: pay.value },
    });
    expect(res.status).toBe(200);
  }
  /** Three days pass for what the agent was paid so far (its charges move into the past). */
  const threeDaysLater = (agentId: string) =>
    ds.query(
      `UPDATE transactions SET completed_at = completed_at - make_interval(secs => $2), created_at = created_at - make_interval(secs => $2)
        WHERE providing_agent_id = $1`,
      [agentId, THREE_DAYS_S + 1],
    );
  const withdraw = async (owner: Wallet, agentId: string, amount: string) =>
    api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId, amount, destinationWallet: owner.address },
      headers: await walletHeaders(owner, agentId, 'POST /api/v1/payments/withdraw'),
    });
  const balance = async (agentId: string) =>
    (await api.request('GET', `/api/v1/payments/balance/${agentId}`)).body.data;

  it('20 price-0 runs from 5 wallets and three days: the next client pays 2.001, the agent cannot withdraw it, the dispute freezes all 1.90', async () => {
    const owner = newWallet();
    const id = await agent(owner);
    const puppets = Array.from({ length: 5 }, () => newWallet());
    for (const p of puppets) for (let i = 0; i < 4; i++) await freeRun(id, p);
    await threeDaysLater(id);
    const call = await paidExecute(api, id, newWallet(), PLATFORM_FEE + TWO);
    expect(await balance(id)).toMatchObject({ available: '1.900000', reserved: '1.900000' });
    expect((await withdraw(owner, id, '1.900000')).status).toBe(409);
    const filed = await fileDispute(api, call);
    expect(filed.status).toBe(201);
    const [dispute] = await ds.query(`SELECT frozen_amount::text AS frozen FROM disputes WHERE id = $1`, [
      filed.body.data.disputeId,
    ]);
    expect(dispute.frozen).toBe('1900000');
  });

  it('10.00 paid by 5 puppets, funded only through the owner or themselves, and three days: the reserve stays', async () => {
    const owner = newWallet();
    const id = await agent(owner);
    const ownersOther = await agent(owner);
    const puppets = Array.from({ length: 5 }, () => newWallet());
    for (const [i, p] of puppets.entries()) {
      // Money that goes round to the attacker: to the owner's other agent, or to the puppet's own.
      const via = i % 2 === 0 ? ownersOther : await agent(p);
      await paidExecute(api, via, p, PLATFORM_FEE + TWO);
    }
    // Even matured (past its filing window), that spend is not elsewhere.
    await matureSpend(api, puppets);
    for (const p of puppets) await paidExecute(api, id, p, PLATFORM_FEE + TWO);
    await threeDaysLater(id);
    await paidExecute(api, id, newWallet(), PLATFORM_FEE + TWO);
    // All of it can still be disputed, and none of it is a record.
    expect(await balance(id)).toMatchObject({ available: '11.400000', reserved: '11.400000' });
    expect((await withdraw(owner, id, '1.000000')).status).toBe(409);
  });

  it('10.00 from payers who paid other owners 2.00 each, three days old: an established record, the reserve lifts', async () => {
    const owner = newWallet();
    const id = await agent(owner);
    const shop = await agent(newWallet());
    const clients = Array.from({ length: 5 }, () => newWallet());
    for (const c of clients) await paidExecute(api, shop, c, PLATFORM_FEE + TWO);
    for (const c of clients) await paidExecute(api, id, c, PLATFORM_FEE + TWO);
    // Not three days old yet.
    expect(await balance(id)).toMatchObject({ available: '9.500000', reserved: '9.500000' });
    await threeDaysLater(id);
    await paidExecute(api, id, newWallet(), PLATFORM_FEE + TWO);
    // Their 2.00 at the shop can still be disputed back: not spend yet.
    expect(await balance(id)).toMatchObject({ available: '11.400000', reserved: '11.400000' });
    // A filing window later (their charges here leave theirs too), that spend has matured: the record stands,
    // and the next client's 1.90, inside its window, is not reserved.
    await matureSpend(api, clients);
    await paidExecute(api, id, newWallet(), PLATFORM_FEE + TWO);
    expect(await balance(id)).toMatchObject({ available: '13.300000', reserved: '0.000000' });
    expect((await withdraw(owner, id, '13.300000')).status).toBe(201);
  });

  it('one payer pays 10.00 to agents of two owners (circular, matured): funded for each, yet no record for either', async () => {
    const [owner1, owner2] = [newWallet(), newWallet()];
    const [a, b] = [await agent(owner1), await agent(owner2)];
    const payer = newWallet();
    for (let i = 0; i < 5; i++) await paidExecute(api, b, payer, PLATFORM_FEE + TWO);
    await matureSpend(api, [payer]);
    for (let i = 0; i < 5; i++) await paidExecute(api, a, payer, PLATFORM_FEE + TWO);
    await threeDaysLater(a);
    const [elsewhere] = await ds.query(`SELECT payer_spend_elsewhere($1, $2)::text AS v`, [
      payer.address,
      owner1.address,
    ]);
    expect(elsewhere.v).toBe('10000000');
    // 10.00 settled three days ago from a payer funded 10.00 elsewhere: before, an established record.
    await paidExecute(api, a, newWallet(), PLATFORM_FEE + TWO);
    expect(await balance(a)).toMatchObject({ available: '11.400000', reserved: '11.400000' });
    expect((await withdraw(owner1, a, '1.000000')).status).toBe(409);
  });
});
