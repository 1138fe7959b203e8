import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { FixedClock } from '@app/common';
import { ResolveOverdueDispute } from '@app/disputes';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { fileDispute, paidExecute } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { matureSpend } from '../support/payer-spend';
import { newWallet } from '../support/wallets';

const PLATFORM_FEE = 1_000n;
const CENT = 10_000n;
const ONE = 1_000_000n;
const HOUR_MS = 3_600_000;

/**
 * Issue 52, review H1, played by the attacker (REPUTATION_MODEL=weighted, FUNDED_PAYER_MIN_SPEND_MICRO
 * 1.00). Before: a payer became funded for 0.001: it paid 1.00 to a throwaway agent of its second
 * wallet (counted as spend at the charge), banked +3 a day on any number of targets while funded,
 * then disputed the 1.00 back (the throwaway never answers: client_wins after 48 h, the whole fee
 * refunded), and the gains stayed. Now spend counts only once matured (past the filing window, no
 * dispute pending, what the agent kept): the payer is not funded while it could still take the money
 * back, and a funding charge disputed back never matures.
 */
describe('Reputation against spend disputed back (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  const clock = new FixedClock(new Date());

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' }, { clock });
    ds = api.app.get(DataSource);
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  async function agent(owner: Wallet, basePrice: string): Promise<string> {
    const res = await registerAgent(api, owner, {
      endpoints: { execution: agentServer.url },
      capabilities: [capabilityPayload({ pricing: { model: 'per-request', basePrice, currency: 'USDC' } })],
    });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  }
  const score = async (id: string) => (await api.request('GET', `/api/v1/reputation/${id}`)).body.data.score;
  const elsewhere = async (payer: Wallet, owner: Wallet) =>
    (await ds.query(`SELECT payer_spend_elsewhere($1, $2)::text AS v`, [payer.address, owner.address]))[0].v;

  it('1.00 to a throwaway agent, then disputed back: no gains while it could be, none after it was', async () => {
    const targetsOwner = newWallet();
    const targets = [await agent(targetsOwner, '0.010000'), await agent(targetsOwner, '0.010000')];
    // The attacker's second wallet registers a throwaway agent that will never answer a dispute.
    const throwaway = await agent(newWallet(), '1.000000');
    const payer = newWallet();
    const funding = await paidExecute(api, throwaway, payer, PLATFORM_FEE + ONE);
    // Before: funded at once, +3 on each target. Now: the 1.00 can still be disputed back, so it is no spend yet.
    for (const t of targets) for (let i = 0; i < 3; i++) await paidExecute(api, t, payer, PLATFORM_FEE + CENT);
    expect(await Promise.all(targets.map(score))).toEqual([50, 50]);
    expect(await elsewhere(payer, targetsOwner)).toBe('0');

    // The dispute: the throwaway never answers, the window lapses, client_wins refunds the whole 1.00.
    const filed = await fileDispute(api, funding);
    expect(filed.status).toBe(201);
    clock.advance(49 * HOUR_MS);
    expect(await api.app.get(ResolveOverdueDispute).execute(filed.body.data.disputeId)).toBe(true);
    clock.set(new Date());
    const [tx] = await ds.query(`SELECT status FROM transactions WHERE id = $1`, [funding.transactionId]);
    expect(tx.status).toBe('refunded');

    // The filing window passes for all of it: the refunded charge adds nothing; the payer stays unfunded.
    await matureSpend(api, [payer]);
    expect(await elsewhere(payer, targetsOwner)).toBe('0');
    for (const t of targets) for (let i = 0; i < 3; i++) await paidExecute(api, t, payer, PLATFORM_FEE + CENT);
    expect(await Promise.all(targets.map(score))).toEqual([50, 50]);
  });

  it('the same 1.00 kept undisputed a filing window: funded, +3 a day on each target (what it costs is real)', async () => {
    const targetsOwner = newWallet();
    const targets = [await agent(targetsOwner, '0.010000'), await agent(targetsOwner, '0.010000')];
    const payer = newWallet();
    await paidExecute(api, await agent(newWallet(), '1.000000'), payer, PLATFORM_FEE + ONE);
    await matureSpend(api, [payer]);
    expect(await elsewhere(payer, targetsOwner)).toBe('1000000');
    for (const t of targets) for (let i = 0; i < 4; i++) await paidExecute(api, t, payer, PLATFORM_FEE + CENT);
    expect(await Promise.all(targets.map(score))).toEqual([53, 53]);
  });
});
