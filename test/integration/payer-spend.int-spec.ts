import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { fileDispute, paidExecute, resolveDispute } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';

const PLATFORM_FEE = 1_000n;

/**
 * What each payer has paid agora (`payer_spend`, `payer_owner_spend`, migration ReputationWeight):
 * kept by `reputation_apply` as charges and disputes happen, it equals what the migration computes
 * from the transactions of a database that had none (reverted, then applied again).
 */
describe('payer spend (integration)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
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
  type Row = { kind: string; payer: string; owner: string; amount: string };
  const sorted = (rows: Row[]) =>
    [...rows].sort((x, y) => (x.kind + x.payer + x.owner < y.kind + y.payer + y.owner ? -1 : 1));
  const spend = async () =>
    sorted(
      await ds.query(
        `SELECT 'total' AS kind, payer, '' AS owner, amount::text FROM payer_spend
         UNION ALL SELECT 'owner', payer, owner, amount::text FROM payer_owner_spend`,
      ),
    );

  it('charges add, a filed dispute takes back, a resolution gives back what the agent kept; the backfill agrees', async () => {
    const [ownerA, ownerB, payer, other] = [newWallet(), newWallet(), newWallet(), newWallet()];
    const a = await agent(ownerA, '1.000000');
    const b = await agent(ownerB, '0.500000');
    const own = await agent(payer, '2.000000');
    const calls = [];
    for (let i = 0; i < 4; i++) calls.push(await paidExecute(api, a, payer, PLATFORM_FEE + 1_000_000n));
    await paidExecute(api, b, payer, PLATFORM_FEE + 500_000n);
    await paidExecute(api, b, other, PLATFORM_FEE + 500_000n);
    // Paying one's own agent is not spend.
    await paidExecute(api, own, payer, PLATFORM_FEE + 2_000_000n);
    const disputes = [];
    for (const call of calls.slice(0, 3)) disputes.push((await fileDispute(api, call)).body.data.disputeId as string);
    expect((await resolveDispute(api, disputes[0], 'agent_wins')).status).toBe(200);
    expect((await resolveDispute(api, disputes[1], 'split')).status).toBe(200);
    // disputes[2] still pending: its fee is out of the payer's spend.
    const p = payer.address.toLowerCase();
    const kept = await spend();
    expect(kept).toEqual(
      sorted([
        { kind: 'owner', payer: other.address.toLowerCase(), owner: ownerB.address.toLowerCase(), amount: '500000' },
        { kind: 'owner', payer: p, owner: ownerA.address.toLowerCase(), amount: '2500000' },
        { kind: 'owner', payer: p, owner: ownerB.address.toLowerCase(), amount: '500000' },
        { kind: 'total', payer: other.address.toLowerCase(), owner: '', amount: '500000' },
        { kind: 'total', payer: p, owner: '', amount: '3000000' },
      ]),
    );
    const [elsewhere] = await ds.query(`SELECT payer_spend_elsewhere($1, $2)::text AS v`, [p, ownerA.address]);
    expect(elsewhere.v).toBe('500000');

    const names = ds.migrations.map((m) => m.name);
    const count = names.length - names.indexOf('ReputationWeight1764230000000');
    for (let i = 0; i < count; i++) await ds.undoLastMigration({ transaction: 'each' });
    expect(await ds.runMigrations({ transaction: 'each' })).toHaveLength(count);
    expect(await spend()).toEqual(kept);
  });
});
