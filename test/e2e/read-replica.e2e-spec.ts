import { ReplicaReads } from '@app/database';
import { startApi, ApiHarness } from '../support/api-harness';
import { registerAgent } from '../support/factories';
import { seedCharge } from '../support/money';
import { PgPair, startPgPair } from '../support/pg-replica';
import { waitFor } from '../support/processes';
import { newWallet } from '../support/wallets';

/**
 * Public reads on a streaming replica (issue 37): a primary and its replica of the test's own
 * (initdb, pg_basebackup) on loopback ports. Discovery, the x402 discovery API and reputation read
 * the replica while it is fresh; with its replay paused they show the replica's older state until
 * the lag passes DATABASE_READ_MAX_LAG_MS, then the primary's. Money and a client's own reads never
 * read it; a replica that stops answering sends reads to the primary.
 */
describe('read replicas (e2e)', () => {
  let pair: PgPair;
  let lenient: ApiHarness; // tolerates a minute of lag
  let strict: ApiHarness; // tolerates 400 ms
  const onReplica = (api: ApiHarness) => api.app.get(ReplicaReads).onReplica;

  beforeAll(async () => {
    pair = await startPgPair();
    const env = (maxLag: string) => ({
      DATABASE_URL: pair.primaryUrl,
      DATABASE_READ_URL: pair.replicaUrl,
      DATABASE_READ_MAX_LAG_MS: maxLag,
      DATABASE_READ_PROBE_MS: '50',
    });
    lenient = await startApi(env('60000'));
    strict = await startApi(env('400'));
    for (const api of [lenient, strict]) {
      api.app.get(ReplicaReads).warmUp();
      await waitFor(async () => onReplica(api), 'the replica to be measured fresh');
    }
  }, 120_000);
  afterAll(async () => {
    await lenient?.close();
    await strict?.close();
    await pair?.stop();
  });

  const discovered = async (api: ApiHarness) =>
    ((await api.request('GET', '/api/v1/discover?limit=100')).body.data.agents as { id: string }[]).map((a) => a.id);
  const listed = async (api: ApiHarness) => {
    const res = await api.request('GET', '/x402/discovery/resources?limit=100');
    if (!Array.isArray(res.body.items))
      throw new Error(`x402 resources answered ${res.status}: ${JSON.stringify(res.body)}`);
    return (res.body.items as { resource: string }[]).map((i) => i.resource);
  };

  it('public reads follow the replica; money and a client’s own reads stay on the primary', async () => {
    const a = (await registerAgent(lenient, newWallet(), { name: 'Replicated agent' })).body.data.id as string;
    await pair.caughtUp();
    expect(await discovered(lenient)).toContain(a);

    await pair.pauseReplay();
    try {
      const b = (await registerAgent(lenient, newWallet(), { name: 'Not yet replicated' })).body.data.id as string;
      await seedCharge(lenient.app, { agentId: a, agentFee: 2_000_000n });
      // The client's own read of what it wrote, and the balance: the primary.
      expect((await lenient.request('GET', `/api/v1/agents/${b}`)).status).toBe(200);
      expect((await lenient.request('GET', `/api/v1/payments/balance/${a}`)).body.data.totalEarned).toBe('1.900000');
      // Discovery and the x402 resources on the replica, still within the lenient bound: not there yet.
      expect(onReplica(lenient)).toBe(true);
      expect(await discovered(lenient)).not.toContain(b);
      expect((await listed(lenient)).some((r) => r.includes(b))).toBe(false);
      expect((await lenient.request('GET', `/api/v1/reputation/${b}`)).status).toBe(404);
      // The strict api stops trusting the replica once it lags past 400 ms: the primary answers.
      await waitFor(async () => !onReplica(strict), 'the strict api to leave the lagging replica');
      expect(await discovered(strict)).toContain(b);
      expect((await strict.request('GET', `/api/v1/reputation/${b}`)).status).toBe(200);
    } finally {
      await pair.resumeReplay();
    }
    await waitFor(async () => onReplica(strict), 'the strict api to come back to the caught-up replica');
    expect(await discovered(lenient)).toEqual(expect.arrayContaining([a]));
  });

  it('a replica that stops answering sends reads to the primary', async () => {
    const c = (await registerAgent(lenient, newWallet(), { name: 'After the replica' })).body.data.id as string;
    pair.stopReplica();
    const res = await lenient.request('GET', '/api/v1/discover?limit=100');
    expect(res.status).toBe(200);
    expect(res.body.data.agents.map((x: { id: string }) => x.id)).toContain(c);
    await waitFor(async () => !onReplica(lenient), 'the api to mark the replica unusable');
    expect((await lenient.request('GET', '/api/v1/reputation/leaderboard')).status).toBe(200);
  });
});
