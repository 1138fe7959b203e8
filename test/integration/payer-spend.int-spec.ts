import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { CountMaturedSpend, SPEND_MATURITY_GRACE_S } from '@app/reputation';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { fileDispute, paidExecute, resolveDispute } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';

const PLATFORM_FEE = 1_000n;

/**
 * What each payer has paid agora (`payer_spend`, `payer_owner_spend`, migrations ReputationWeight,
 * MaturedPayerSpend): a charge counts only once matured (past its dispute filing window and a grace,
 * no dispute pending), what the agent kept of it, once, by the worker's sweep (CountMaturedSpend);
 * it equals what the migrations compute from the transactions of a database that had none.
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

  /** The filing window (and the grace) passes for every charge so far: they move into the past. */
  const windowPasses = () =>
    ds.query(`UPDATE transactions SET completed_at = completed_at - make_interval(secs => $1)`, [
      api.config.disputeFilingWindowS + SPEND_MATURITY_GRACE_S + 1,
    ]);
  const sweep = () => api.app.get(CountMaturedSpend).execute();

  it('matured charges count what the agent kept, once; a pending dispute waits; the backfill agrees', async () => {
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
    // Nothing counts before the filing window has closed.
    expect(await sweep()).toEqual({ counted: 0 });
    expect(await spend()).toEqual([]);
    await windowPasses();
    // Two workers at once: each charge is claimed by one of them. disputes[2] is pending: it waits.
    const [one, two] = await Promise.all([sweep(), sweep()]);
    expect(one.counted + two.counted).toBe(6); // seven charges, one waiting
    // A charge made now is not matured.
    await paidExecute(api, b, payer, PLATFORM_FEE + 500_000n);
    expect(await sweep()).toEqual({ counted: 0 });
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
    // The pending dispute ends client_wins: the charge counts, adding nothing (refunded).
    expect((await resolveDispute(api, disputes[2], 'client_wins')).status).toBe(200);
    expect(await sweep()).toEqual({ counted: 1 });
    expect(await spend()).toEqual(kept);
    const [uncounted] = await ds.query(`SELECT count(*)::int AS n FROM transactions WHERE NOT spend_counted`);
    expect(uncounted.n).toBe(1);

    const names = ds.migrations.map((m) => m.name);
    const count = names.length - names.indexOf('ReputationWeight1764230000000');
    for (let i = 0; i < count; i++) await ds.undoLastMigration({ transaction: 'each' });
    expect(await ds.runMigrations({ transaction: 'each' })).toHaveLength(count);
    expect(await spend()).toEqual(kept);
  });
});
