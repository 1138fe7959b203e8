import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { QUEUES } from '@app/queues';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { ADMIN, paidExecute } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { seedCharge } from '../support/money';
import { freePort } from '../support/ports';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { declaredFamilies, familyOf, parsePrometheus, Sample, sampleValue } from '../support/prometheus';
import { PrivateRedis, startPrivateRedis } from '../support/redis-server';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n;

/** The IPv4 addresses listening on a TCP port, from /proc/net/tcp (state 0A = LISTEN; addresses in little-endian hex). */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f.length > 3 && f[3] === '0A' && f[1].endsWith(`:${hexPort}`))
    .map((f) =>
      f[1]
        .slice(0, 8)
        .match(/../g)!
        .reverse()
        .map((b) => parseInt(b, 16))
        .join('.'),
    );
}
const TOKEN = 'metrics-scrape-token-0123';
const BEARER = { authorization: `Bearer ${TOKEN}` };

/**
 * Issue 18: the api's GET /metrics and the worker's metrics port, read with a strict parser of the
 * Prometheus text format; their counters move by exactly what a scripted sequence causes. Liveness
 * and readiness: readiness follows Redis down and back, liveness does not.
 */
describe('observability: metrics and health (e2e)', () => {
  let redis: PrivateRedis;
  let redisPort: number;
  let api: ApiHarness;
  let agentServer: TestAgentServer;
  let worker: RunningProcess;
  let workerMetrics: string;

  beforeAll(async () => {
    redisPort = await freePort();
    redis = await startPrivateRedis({ tcpPort: redisPort });
    agentServer = await new TestAgentServer().start();
    api = await startApi({
      REDIS_URL: redis.url!,
      METRICS_TOKEN: TOKEN,
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      INVARIANT_CHECK_INTERVAL_MS: '500',
    });
    const port = await freePort();
    worker = startProcess(builtApp('worker'), { ...api.env, LOG_LEVEL: 'warn', METRICS_PORT: String(port) });
    workerMetrics = `http://127.0.0.1:${port}/metrics`;
    await waitFor(
      async () => (await fetch(workerMetrics, { headers: BEARER }).catch(() => null))?.status === 200,
      'the worker metrics port',
      30_000,
    );
  }, 60_000);
  afterAll(async () => {
    worker.child.kill('SIGTERM');
    await worker.exited;
    await api.close();
    await agentServer.stop();
    await redis.stop();
  });

  const scrapeApi = async (): Promise<Sample[]> => {
    const res = await fetch(`${api.baseUrl}/metrics`, { headers: BEARER });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheus(await res.text());
  };
  const scrapeWorker = async (): Promise<Sample[]> => {
    const res = await fetch(workerMetrics, { headers: BEARER });
    expect(res.status).toBe(200);
    return parsePrometheus(await res.text());
  };

  it("refuses /metrics without the token and with a wrong one, the api's and the worker's port alike", async () => {
    for (const url of [`${api.baseUrl}/metrics`, workerMetrics]) {
      const none = await fetch(url);
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toBe('Bearer');
      expect((await fetch(url, { headers: { authorization: 'Bearer not-the-token-at-all!' } })).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
      // Issue 29: the admin key (which resolves disputes) does not open a scrape.
      expect((await fetch(url, { headers: { authorization: `Bearer ${ADMIN['X-Admin-Key']}` } })).status).toBe(401);
      expect((await fetch(url, { headers: BEARER })).status).toBe(200);
    }
  });

  it("binds the worker's metrics port to loopback by default (the kernel's table of listening sockets)", () => {
    const port = Number(new URL(workerMetrics).port);
    const listening = listeningAddresses(port);
    expect(listening).toEqual(['127.0.0.1']);
  });

  it('serves no /metrics on an api with an admin key and no METRICS_TOKEN (the key never falls back)', async () => {
    const bare = await startApi({ REDIS_URL: redis.url! });
    try {
      expect(bare.config.adminApiKey).toBeDefined();
      const res = await fetch(`${bare.baseUrl}/metrics`, {
        headers: { authorization: `Bearer ${ADMIN['X-Admin-Key']}` },
      });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    } finally {
      await bare.close();
    }
  });

  it('counts exactly what a scripted sequence does: 2 executions completed, 1 failed, 1 withdrawal requested and paid', async () => {
    const owner = newWallet();
    const agentId = (
      await registerAgent(api, owner, {
        endpoints: { execution: agentServer.url },
        capabilities: [capabilityPayload()],
      })
    ).body.data.id;
    const before = await scrapeApi();
    const workerBefore = await scrapeWorker();

    await paidExecute(api, agentId, newWallet(), PRICE, { text: 'one' });
    await paidExecute(api, agentId, newWallet(), PRICE, { text: 'two' });
    const h = await x402Header(newWallet(), { amount: PRICE, payTo: api.config.platformWallet });
    const failed = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'x', mode: 'fail' } },
      headers: { [h.name]: h.value },
    });
    expect(failed.status).toBe(502);
    await seedCharge(api.app, { agentId, agentFee: 2_000_000n, reputation: 90 });
    const withdrawal = await api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId, amount: '1.00', destinationWallet: newWallet().address },
      headers: await walletHeaders(owner, agentId, 'POST /api/v1/payments/withdraw'),
    });
    expect(withdrawal.status).toBe(201);

    const after = await scrapeApi();
    const delta = (name: string, labels: Record<string, string>) =>
      sampleValue(after, name, labels) - sampleValue(before, name, labels);
    expect(delta('agora_executions_total', { outcome: 'completed', pricing: 'per-request' })).toBe(2);
    expect(delta('agora_executions_total', { outcome: 'failed', pricing: 'per-request' })).toBe(1);
    expect(delta('agora_agent_call_duration_seconds_count', { outcome: 'ok' })).toBe(2);
    expect(delta('agora_agent_call_duration_seconds_count', { outcome: 'failed' })).toBe(1);
    expect(
      delta('agora_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/execute', status: '200' }),
    ).toBe(2);
    expect(
      delta('agora_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/execute', status: '502' }),
    ).toBe(1);
    expect(delta('agora_payouts_total', { kind: 'withdrawal', state: 'requested' })).toBe(1);
    expect(sampleValue(after, 'agora_process_cpu_seconds_total', { process: 'api' })).toBeGreaterThan(0);

    // The worker pays the withdrawal: its job and the payout are counted there.
    const workerAfter = await waitFor(async () => {
      const s = await scrapeWorker();
      return sampleValue(s, 'agora_payouts_total', { kind: 'withdrawal', state: 'completed' }) >
        sampleValue(workerBefore, 'agora_payouts_total', { kind: 'withdrawal', state: 'completed' })
        ? s
        : undefined;
    }, 'the worker to pay the withdrawal');
    const workerDelta = (name: string, labels: Record<string, string>) =>
      sampleValue(workerAfter, name, labels) - sampleValue(workerBefore, name, labels);
    expect(workerDelta('agora_payouts_total', { kind: 'withdrawal', state: 'completed' })).toBe(1);
    expect(
      workerDelta('agora_job_duration_seconds_count', {
        queue: QUEUES.money,
        job: 'withdrawal.process',
        outcome: 'completed',
      }),
    ).toBe(1);
    expect(sampleValue(workerAfter, 'agora_queue_jobs', { queue: QUEUES.money, state: 'failed' })).toBe(0);
    expect(
      workerAfter.some(
        (s) => s.name === 'agora_queue_jobs' && s.labels.queue === 'executions' && s.labels.state === 'waiting',
      ),
    ).toBe(true);
    // The scheduled invariant check (every 500 ms here) reports its result and time.
    const checked = await waitFor(async () => {
      const s = await scrapeWorker();
      return sampleValue(s, 'agora_invariants_checked_timestamp_seconds') > Date.now() / 1000 - 60 ? s : undefined;
    }, 'an invariant check');
    expect(sampleValue(checked, 'agora_invariants_ok')).toBe(1);
  });

  it('exposes every metric the Grafana dashboard and the alert rules in docs/ops use', async () => {
    const text = async (url: string, headers: Record<string, string> = {}) => (await fetch(url, { headers })).text();
    // The invariant gauges appear with the worker's first check (every 500 ms here).
    await waitFor(
      async () => (await text(workerMetrics, BEARER)).includes('# TYPE agora_invariants_ok gauge'),
      'a first invariant check',
    );
    const exposed = declaredFamilies(
      (await text(`${api.baseUrl}/metrics`, BEARER)) + (await text(workerMetrics, BEARER)),
    );
    const ops = ['alerts.yml', 'grafana/agora-dashboard.json']
      .map((f) => readFileSync(join(__dirname, '..', '..', 'docs', 'ops', f), 'utf8'))
      .join('\n');
    const used = [...new Set(ops.match(/agora_[a-z_]+/g))];
    expect(used.length).toBeGreaterThan(10);
    expect(used.filter((name) => !familyOf(name, exposed))).toEqual([]);
  });

  it('a flood of health probes runs one check at a time per route: at most one pooled connection, never the pool', async () => {
    const ds = api.app.get(DataSource);
    const query = ds.query.bind(ds);
    let pinging = 0;
    let most = 0;
    let pings = 0;
    const spy = jest.spyOn(ds, 'query').mockImplementation(async (sql: string, ...rest: unknown[]) => {
      if (sql !== 'SELECT 1') return query(sql, ...(rest as [unknown[]]));
      pings++;
      most = Math.max(most, ++pinging);
      try {
        return await query(sql);
      } finally {
        pinging--;
      }
    });
    try {
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) => api.request('GET', i % 2 ? '/api/v1/health/ready' : '/api/v1/health')),
      );
      expect(answers.map((r) => r.status)).toEqual(Array(60).fill(200));
      expect(pings).toBeGreaterThan(0);
      expect(pings).toBeLessThan(60);
      // One check of each route may overlap the other's: two pings at once at most, never one per probe.
      expect(most).toBeLessThanOrEqual(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('readiness follows Redis down and back; liveness stays up', async () => {
    const ready = () => api.request('GET', '/api/v1/health/ready');
    expect((await ready()).status).toBe(200);
    await redis.stop();
    try {
      const down = await waitFor(async () => {
        const r = await ready();
        return r.status === 503 ? r : undefined;
      }, 'readiness to fail');
      expect(down.body.error.details.health.error).toMatchObject({ redis: { status: 'down' } });
      expect((await api.request('GET', '/api/v1/health/live')).status).toBe(200);
    } finally {
      redis = await startPrivateRedis({ tcpPort: redisPort });
    }
    await waitFor(async () => (await ready()).status === 200, 'readiness to recover', 30_000);
  }, 60_000);
});
