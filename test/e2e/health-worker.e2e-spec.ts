import { AgoraClient } from '@agora/sdk';
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from '../support/api-harness';
import { registerAgent } from '../support/factories';
import { HealthServer } from '../support/health-server';
import { JsonReceiver } from '../support/json-receiver';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { freePort } from '../support/ports';
import { newWallet, walletHeaders } from '../support/wallets';

/** Probe every second; down at the first failure; hidden after 2 s failing, set inactive after 4 s. */
const HEALTH_ENV = {
  OUTBOUND_ALLOW_HTTP: 'true',
  OUTBOUND_ALLOW_PRIVATE: 'true',
  HEALTH_PROBE_INTERVAL_S: '1',
  HEALTH_PROBE_TIMEOUT_MS: '1000',
  HEALTH_DOWN_AFTER_FAILURES: '1',
  HEALTH_HIDE_AFTER_S: '2',
  HEALTH_DEACTIVATE_AFTER_S: '4',
  MAINTENANCE_INTERVAL_MS: '300',
};

const stop = async (p?: RunningProcess) => {
  if (!p) return;
  p.child.kill('SIGKILL');
  await p.exited;
};

describe('agent health probes by the worker (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let worker: RunningProcess | undefined;
  let health: HealthServer;
  let receiver: JsonReceiver;
  let owner: Wallet;
  let flakyId: string;
  let steadyId: string;
  let postyId: string;
  let goneId: string;
  let ts = Date.now();

  const agent = async (id: string) => (await api.request('GET', `/api/v1/agents/${id}`)).body.data;
  const history = async (id: string) => (await api.request('GET', `/api/v1/agents/${id}/health`)).body.data;
  const probes = async (id: string) =>
    ((await history(id)).hours as { probes: number }[]).reduce((n, h) => n + h.probes, 0);
  const events = async (id: string) =>
    (
      (await ds.query(
        `SELECT data FROM outbox_events WHERE type = 'agent.health_changed' AND agent_id = $1 ORDER BY created_at, id`,
        [id],
      )) as { data: Record<string, unknown> }[]
    ).map((e) => e.data);
  const listed = async (query = '') =>
    ((await api.request('GET', `/api/v1/discover?limit=100${query}`)).body.data.agents as { id: string }[]).map(
      (a) => a.id,
    );

  beforeAll(async () => {
    health = await new HealthServer().start();
    receiver = await new JsonReceiver().start();
    api = await startApi(HEALTH_ENV);
    ds = api.app.get(DataSource);
    owner = newWallet();
    const register = async (w: Wallet, name: string) => {
      const res = await registerAgent(api, w, {
        name,
        endpoints: { execution: `${health.url}/${name}/execute`, health: health.healthUrl(name) },
      });
      expect(res.status).toBe(201);
      return res.body.data.id as string;
    };
    flakyId = await register(owner, 'flaky');
    steadyId = await register(newWallet(), 'steady');
    // No health URL: probed with a HEAD of the execution endpoint, which (POST-only) answers 405.
    health.status.set('posty', 405);
    const posty = await registerAgent(api, newWallet(), {
      name: 'posty',
      endpoints: { execution: `${health.url}/posty/execute` },
    });
    postyId = posty.body.data.id;
    // No health URL and nothing listening: the HEAD gets no answer at all.
    const gone = await registerAgent(api, newWallet(), {
      name: 'gone',
      endpoints: { execution: `http://127.0.0.1:${await freePort()}/execute` },
    });
    goneId = gone.body.data.id;
    const sub = await api.request('POST', '/api/v1/webhooks', {
      body: { agentId: flakyId, url: receiver.url, events: ['agent.health_changed'] },
      headers: await walletHeaders(owner, flakyId, 'POST /api/v1/webhooks', ++ts),
    });
    expect(sub.status).toBe(201);
    worker = startProcess(builtApp('worker'), api.env);
  });
  afterAll(async () => {
    await stop(worker);
    await api.close();
    await health.stop();
    await receiver.stop();
  });

  it('shows an agent answering its probes as up, with its uptime and latency', async () => {
    const a = await waitFor(async () => {
      const a = await agent(flakyId);
      return a.health.status === 'up' && a;
    }, 'the agent probed up');
    expect(a.health.uptime24h).toBe(1);
    expect(a.health.uptime7d).toBe(1);
    expect(a.health.lastError).toBeNull();
    expect(typeof a.health.lastLatencyMs).toBe('number');
    expect(a.inactiveReason).toBeNull();
    const listedNow = await listed();
    expect(listedNow).toEqual(expect.arrayContaining([flakyId, steadyId]));
  });

  it('without a health URL: any answer of the execution endpoint below 500 is up, no answer is down', async () => {
    await waitFor(async () => (await agent(postyId)).health.status === 'up', 'the HEAD-probed agent up');
    const down = await waitFor(async () => {
      const a = await agent(goneId);
      return a.health.status === 'down' && a;
    }, 'the agent that does not answer down');
    expect(down.health.lastError).toMatch(/^network: /);
    expect(health.calls.get('posty')).toBeGreaterThan(0);
    // 405 keeps it up, listed, never hidden nor deactivated; the silent one goes.
    await waitFor(async () => (await agent(goneId)).status === 'inactive', 'the silent agent set inactive');
    const a = await agent(postyId);
    expect(a).toMatchObject({ status: 'active', health: { status: 'up', lastError: null, uptime24h: 1 } });
    expect(await listed()).toContain(postyId);
  });

  it('rejects a minUptime outside 0..1 or not a number', async () => {
    for (const bad of ['2', '-0.1', 'abc']) {
      const res = await api.request('GET', `/api/v1/discover?minUptime=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('a failing agent goes down, leaves /discover, is set inactive with a reason and an event, and comes back', async () => {
    health.status.set('flaky', 503);
    const down = await waitFor(async () => {
      const a = await agent(flakyId);
      return a.health.status === 'down' && a;
    }, 'the agent probed down');
    expect(down.health.lastError).toBe('HTTP 503');
    expect(down.health.uptime24h).toBeLessThan(1);
    // minUptime 1: not the flaky one, which has failed a probe.
    expect(await listed('&minUptime=1')).toEqual(expect.arrayContaining([steadyId, postyId]));
    expect(await listed('&minUptime=1')).not.toContain(flakyId);
    // Hidden from discovery once it has failed every probe for HEALTH_HIDE_AFTER_S (the steady one stays).
    await waitFor(async () => !(await listed()).includes(flakyId), 'the failing agent hidden from /discover');
    expect(await listed()).toContain(steadyId);
    const recommend = await api.request('GET', '/api/v1/discover/recommend?query=flaky');
    expect(recommend.body.data.recommendations.map((r: { agent: { id: string } }) => r.agent.id)).not.toContain(
      flakyId,
    );
    // Set inactive after HEALTH_DEACTIVATE_AFTER_S, with the reason stated.
    const inactive = await waitFor(async () => {
      const a = await agent(flakyId);
      return a.status === 'inactive' && a;
    }, 'the failing agent set inactive');
    expect(inactive.inactiveReason).toMatch(/^health: failed every probe since .*\(last error: HTTP 503\)$/);
    // The history by the hour: probes answered, then failed; the last error on the health.
    const h = await history(flakyId);
    expect(h.health).toMatchObject({ status: 'down', lastError: 'HTTP 503', uptime24h: expect.any(Number) });
    const hours = h.hours as { hour: string; probes: number; ups: number; avgLatencyMs: number | null }[];
    expect(hours.length).toBeGreaterThanOrEqual(1);
    expect(hours.reduce((n, x) => n + x.ups, 0)).toBeGreaterThanOrEqual(1);
    expect(hours.reduce((n, x) => n + x.probes - x.ups, 0)).toBeGreaterThanOrEqual(1);
    expect(typeof hours[hours.length - 1].avgLatencyMs).toBe('number');
    expect((await new AgoraClient({ baseUrl: api.baseUrl }).getAgentHealth(flakyId)).hours).toEqual(hours);
    // Events: down (status flip), then the deactivation; each delivered to the subscribed webhook.
    expect((await events(flakyId)).map((e) => [e.status, e.agentStatus])).toEqual([
      ['down', 'active'],
      ['down', 'inactive'],
    ]);
    expect((await events(flakyId))[1].reason).toBe(inactive.inactiveReason);
    await waitFor(
      async () => receiver.received.filter((r) => r.raw.includes('agent.health_changed')).length >= 2,
      'both health events delivered to the webhook',
    );
    const [{ n }] = await ds.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id
        WHERE e.type = 'agent.health_changed' AND e.agent_id = $1`,
      [flakyId],
    );
    expect(n).toBe(2);
    // An inactive agent is no longer probed: the steady one is probed twice more, the flaky one not.
    const flakyProbes = await probes(flakyId);
    const steadyProbes = await probes(steadyId);
    await waitFor(async () => (await probes(steadyId)) >= steadyProbes + 2, 'two more probes of the steady agent');
    expect(await probes(flakyId)).toBe(flakyProbes);

    // Reactivated while still failing: the streak stands, so it is hidden at once, probed soon,
    // and set inactive again (a third event).
    const failingSince = async () =>
      (await ds.query(`SELECT failing_since FROM agent_health WHERE agent_id = $1`, [flakyId]))[0].failing_since;
    const since = await failingSince();
    const again = await api.request('PATCH', `/api/v1/agents/${flakyId}`, {
      body: { status: 'active' },
      headers: await walletHeaders(owner, flakyId, `PATCH /api/v1/agents/${flakyId}`, ++ts),
    });
    expect(again.status).toBe(200);
    expect(again.body.data.health.status).toBe('down');
    expect(await failingSince()).toEqual(since);
    expect(await listed()).not.toContain(flakyId);
    await waitFor(async () => (await events(flakyId)).length === 3, 'set inactive again at its next failed probe');
    expect((await events(flakyId))[2]).toMatchObject({ status: 'down', agentStatus: 'inactive' });
    expect((await agent(flakyId)).status).toBe('inactive');
    expect(await failingSince()).toEqual(since);

    // The owner fixes it and reactivates it: reason cleared, probed again, listed once up.
    health.status.set('flaky', 200);
    const res = await api.request('PATCH', `/api/v1/agents/${flakyId}`, {
      body: { status: 'active' },
      headers: await walletHeaders(owner, flakyId, `PATCH /api/v1/agents/${flakyId}`, ++ts),
    });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('active');
    expect(res.body.data.inactiveReason).toBeNull();
    await waitFor(async () => (await agent(flakyId)).health.status === 'up', 'the reactivated agent probed up');
    await waitFor(async () => (await listed()).includes(flakyId), 'the reactivated agent listed again');
    // Its recovery is an event too (down -> up).
    const last = (await events(flakyId)).slice(3);
    expect(last).toEqual([expect.objectContaining({ status: 'up', previousStatus: 'down', agentStatus: 'active' })]);
  });
});

describe('agent health probes: SSRF guard and per-host cap (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let worker: RunningProcess | undefined;
  let health: HealthServer;
  const ids: string[] = [];

  beforeAll(async () => {
    health = await new HealthServer().start();
    health.delayMs = 150;
    api = await startApi({ ...HEALTH_ENV, HEALTH_PROBE_INTERVAL_S: '2', HEALTH_HIDE_AFTER_S: '0' });
    ds = api.app.get(DataSource);
    for (let i = 0; i < 12; i++) {
      const res = await registerAgent(api, newWallet(), {
        name: `crowd${i}`,
        endpoints: { execution: `${health.url}/crowd${i}/execute`, health: health.healthUrl(`crowd${i}`) },
      });
      expect(res.status).toBe(201);
      ids.push(res.body.data.id);
    }
  });
  afterAll(async () => {
    await api.close();
    await health.stop();
  });
  afterEach(async () => {
    await stop(worker);
    worker = undefined;
  });

  it('never has more probes in flight to one host than HEALTH_PROBE_PER_HOST, and probes every agent', async () => {
    worker = startProcess(builtApp('worker'), { ...api.env, HEALTH_PROBE_PER_HOST: '3' });
    await waitFor(async () => {
      const [{ n }] = await ds.query(
        `SELECT count(*)::int AS n FROM agent_health WHERE status = 'up' AND agent_id = ANY($1::uuid[])`,
        [ids],
      );
      return n === ids.length;
    }, 'every agent probed');
    expect(health.maxInFlight).toBe(3);
  });

  it('does not call an agent whose address is private when private addresses are not allowed; records the error', async () => {
    const before = [...health.calls.values()].reduce((a, b) => a + b, 0);
    await ds.query(`UPDATE agent_health SET next_probe_at = now() - interval '1 second'`);
    worker = startProcess(builtApp('worker'), { ...api.env, OUTBOUND_ALLOW_PRIVATE: 'false' });
    const rows = await waitFor(async () => {
      const r: { error: string }[] = await ds.query(
        `SELECT last_error AS error FROM agent_health WHERE last_error IS NOT NULL AND agent_id = ANY($1::uuid[])`,
        [ids],
      );
      return r.length === ids.length && r;
    }, 'a blocked probe recorded for every agent');
    for (const r of rows) expect(r.error).toMatch(/^blocked: /);
    expect([...health.calls.values()].reduce((a, b) => a + b, 0)).toBe(before);
  });
});
