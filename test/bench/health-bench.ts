/* Health probes at scale (issue 32): `npm run bench:health`. AGENTS agents (default 10^4) are
   written straight into a fresh database, their endpoints.health spread over HOSTS loopback hosts
   (127.0.0.2, 127.0.0.3, ..., one HTTP server each, answering after DELAY_MS; default 100 hosts,
   0 ms). The built worker (WORKER_DIST, default dist/apps/worker/main.js) runs with its defaults
   (HEALTH_PROBE_CONCURRENCY 200, HEALTH_PROBE_PER_HOST 4) and the private addresses allowed; once
   it is up (a canary agent probed), every agent is made due at once and the round is timed until
   the last result is recorded. ROUNDS rounds (default 3); the median is compared with the
   schedule's interval (HEALTH_PROBE_INTERVAL_S, default 300 s). WORKER_ENV: extra worker variables. */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { createServer, Server } from 'node:http';
import { join } from 'node:path';
import { Client } from 'pg';
import { cpuMs, freshDatabase, postgresCpuMs, stopRoles } from './bench-lib';

const DB = 'agora_health_bench';
const AGENTS = Number(process.env.AGENTS ?? 10_000);
const HOSTS = Number(process.env.HOSTS ?? 100);
const DELAY_MS = Number(process.env.DELAY_MS ?? 0);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const INTERVAL_S = Number(process.env.HEALTH_PROBE_INTERVAL_S ?? 300);
const PORT = Number(process.env.HEALTH_BENCH_PORT ?? 18_700);

async function startHosts(): Promise<{ servers: Server[]; requests: () => number }> {
  let requests = 0;
  const handler = (_req: unknown, res: import('node:http').ServerResponse) => {
    requests++;
    const send = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    if (DELAY_MS > 0) setTimeout(send, DELAY_MS);
    else send();
  };
  const servers: Server[] = [];
  for (let h = 0; h < HOSTS; h++) {
    const server = createServer(handler);
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((r) => server.listen(PORT, hostOf(h), r));
    servers.push(server);
  }
  return { servers, requests: () => requests };
}

const hostOf = (h: number) => `127.0.${2 + Math.floor(h / 250)}.${2 + (h % 250)}`;

async function seed(pg: Client): Promise<void> {
  const hosts = Array.from({ length: HOSTS }, (_, h) => hostOf(h));
  await pg.query(
    `INSERT INTO agents (id, wallet, name, endpoints, metadata, reputation_score, status, chain_settings)
     SELECT gen_random_uuid(), '0x' || substr(md5('w' || i) || md5('v' || i), 1, 40), 'Bench agent ' || i,
            jsonb_build_object('execution', 'http://' || h || ':' || $3 || '/' || i || '/execute',
                               'health', 'http://' || h || ':' || $3 || '/' || i || '/health'),
            '{}'::jsonb, 50, 'active',
            '{"chain_enabled": false, "chain_max_depth": 3, "chain_allowed_callers": [], "chain_blocked_callers": []}'::jsonb
       FROM generate_series(1, $1::int) i, LATERAL (SELECT ($2::text[])[1 + i % cardinality($2::text[])] AS h) x`,
    [AGENTS + 1, hosts, PORT],
  );
  // Not due: the worker boots and idles until the round starts (the canary excepted).
  await pg.query(`UPDATE agent_health SET next_probe_at = now() + interval '1 day'`);
}

const poll = async <T>(f: () => Promise<T | false>, ms = 50): Promise<T> => {
  for (;;) {
    const v = await f();
    if (v !== false) return v;
    await new Promise((r) => setTimeout(r, ms));
  }
};

async function main(): Promise<void> {
  const url = await freshDatabase(DB);
  const pg = new Client({ connectionString: url });
  await pg.connect();
  const hosts = await startHosts();
  await seed(pg);
  const worker = spawn(process.execPath, [process.env.WORKER_DIST ?? join('dist', 'apps', 'worker', 'main.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: url,
      QUEUE_PREFIX: `hbench${Date.now()}`,
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      HEALTH_PROBE_INTERVAL_S: String(INTERVAL_S),
      METRICS_PORT: '0',
      ...Object.fromEntries(
        (process.env.WORKER_ENV ?? '')
          .split(/\s+/)
          .filter(Boolean)
          .map((kv) => kv.split('=')),
      ),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    const [{ canary }] = (await pg.query(`SELECT agent_id AS canary FROM agent_health LIMIT 1`)).rows;
    await pg.query(`UPDATE agent_health SET next_probe_at = now() WHERE agent_id = $1`, [canary]);
    await poll(async () => {
      const r = await pg.query(`SELECT checked_at FROM agent_health WHERE agent_id = $1`, [canary]);
      return r.rows[0].checked_at !== null;
    });
    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Each round rewrites every health row 3 times; autovacuum keeps up at 2 rewrites per agent and
      // interval, not with rounds back to back: vacuum first, as the steady state would have it.
      await pg.query(`VACUUM ANALYZE agent_health`);
      const before = hosts.requests();
      const [workerCpu, pgCpu, benchCpu] = [cpuMs(worker.pid), postgresCpuMs(), process.cpuUsage()];
      const start = (await pg.query(`SELECT clock_timestamp() AS t`)).rows[0].t as Date;
      const t0 = performance.now();
      await pg.query(`UPDATE agent_health SET next_probe_at = $1 WHERE agent_id <> $2`, [start, canary]);
      await poll(async () => {
        const r = await pg.query(`SELECT count(*)::int AS n FROM agent_health WHERE checked_at >= $1`, [start]);
        return r.rows[0].n >= AGENTS;
      }, 200);
      const s = (performance.now() - t0) / 1000;
      times.push(s);
      const [{ up }] = (
        await pg.query(`SELECT count(*)::int AS up FROM agent_health WHERE status = 'up' AND checked_at >= $1`, [start])
      ).rows;
      console.log(
        `round ${round + 1}: ${AGENTS} probes in ${s.toFixed(2)} s (${Math.round(AGENTS / s)} probes/s), ` +
          `${up} up, ${hosts.requests() - before} requests served; CPU ms per probe: worker ` +
          `${((cpuMs(worker.pid) - workerCpu) / AGENTS).toFixed(3)}, Postgres ${((postgresCpuMs() - pgCpu) / AGENTS).toFixed(3)}, ` +
          `agents' servers ${((process.cpuUsage(benchCpu).user + process.cpuUsage(benchCpu).system) / 1000 / AGENTS).toFixed(3)}`,
      );
      await pg.query(`UPDATE agent_health SET next_probe_at = now() + interval '1 day'`);
    }
    const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
    const rate = AGENTS / median;
    console.log(
      `health probes: ${AGENTS} agents on ${HOSTS} hosts (answer after ${DELAY_MS} ms): median round ${median.toFixed(2)} s, ` +
        `${Math.round(rate)} probes/s; the interval is ${INTERVAL_S} s: ${median <= INTERVAL_S ? 'fits' : 'does NOT fit'} ` +
        `(${((100 * median) / INTERVAL_S).toFixed(1)}% of it; at this rate one worker probes ${Math.round(rate * INTERVAL_S)} agents an interval)`,
    );
  } finally {
    await stopRoles([worker]);
    for (const s of hosts.servers) s.close();
    await pg.end();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
