/* Admission on one Redis and on a Redis Cluster (issue 37): `npm run bench:redis`. Every paid execute
   runs one admission script (RateLimiter.hit: the client's and the agent's windows, the payment's
   nonce claim and the idempotency key's run claim). On a cluster its keys share one hash tag, so one
   primary takes every admission: this measures what that one primary takes. CONCURRENCY callers
   (comma list, default 1,16,64) call it for SECONDS (default 5) each, with a fresh payer, agent of 64
   and nonce per call, first against a private redis-server, then against a 3-primary cluster, both
   started here. Reported: calls per second, p99, and the Redis server's CPU per call (from INFO). */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import Redis, { Cluster } from 'ioredis';
import { SystemClock } from '@app/common';
import { AppConfig } from '@app/config';
import { InFlightRuns, RateLimiter } from '@app/execution';
import { readyWithin, redisClusterClient } from '@app/queues';
import { NonceGuard } from '@app/x402';
import { freePort } from '../support/ports';
import { startPrivateRedis } from '../support/redis-server';
import { startRedisCluster } from '../support/redis-cluster';

const CONCURRENCY = (process.env.CONCURRENCY ?? '1,16,64').split(',').map(Number);
const SECONDS = Number(process.env.SECONDS ?? 5);

interface Row {
  redis: string;
  callers: number;
  perS: number;
  p99Ms: number;
  cpuUsPerCall: number;
}

/** used_cpu_sys + used_cpu_user of the servers behind `nodes`, in microseconds. */
async function serverCpuUs(nodes: Redis[]): Promise<number> {
  let total = 0;
  for (const n of nodes) {
    const info = await n.info('cpu');
    const read = (k: string) => Number(new RegExp(`${k}:([\\d.]+)`).exec(info)![1]);
    total += (read('used_cpu_sys') + read('used_cpu_user')) * 1e6;
  }
  return total;
}

async function measure(label: string, client: Redis | Cluster, nodes: () => Redis[], callers: number): Promise<Row> {
  const prefix = `bench${randomBytes(3).toString('hex')}`;
  const config = {
    queuePrefix: prefix,
    // Only whether it is set matters here: it gives the admission keys their shared hash tag.
    redisClusterNodes: client instanceof Cluster ? ['x'] : null,
    rateLimitClientPerMin: 1_000_000,
    rateLimitAgentPerMin: 1_000_000,
    executionTimeoutMs: 30_000,
    runClaimGraceMs: 5_000,
  } as AppConfig;
  const clock = new SystemClock();
  const limiter = new RateLimiter(client, config, clock);
  const nonces = new NonceGuard(client, config, clock);
  const runs = new InFlightRuns(client, config, clock);
  const validBefore = String(Math.floor(Date.now() / 1000) + 600);
  const latencies: number[] = [];
  const cpuBefore = await serverCpuUs(nodes());
  const end = Date.now() + SECONDS * 1000;
  let calls = 0;
  await Promise.all(
    Array.from({ length: callers }, async (_, c) => {
      for (let i = 0; Date.now() < end; i++) {
        const payer = `0x${c.toString(16).padStart(4, '0')}${i.toString(16).padStart(36, '0')}`;
        const nonce = `0x${randomBytes(32).toString('hex')}`;
        const claim = nonces.claimRequest({ chainId: 84532, asset: '0xasset', payer, nonce, validBefore });
        const run = runs.request(payer, `k${i}`, { fingerprint: 'f', requestId: `r${i}` }, null as never);
        const t0 = performance.now();
        await limiter.hit(payer, `agent-${i % 64}`, claim, true, run);
        latencies.push(performance.now() - t0);
        calls++;
      }
    }),
  );
  const cpu = (await serverCpuUs(nodes())) - cpuBefore;
  latencies.sort((a, b) => a - b);
  return {
    redis: label,
    callers,
    perS: Math.round(calls / SECONDS),
    p99Ms: Number(latencies[Math.floor(latencies.length * 0.99)].toFixed(2)),
    cpuUsPerCall: Number((cpu / calls).toFixed(1)),
  };
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  // Over TCP on loopback, as the cluster is.
  const single = await startPrivateRedis({ tcpPort: await freePort() });
  const tcp = new Redis(single.url!, { maxRetriesPerRequest: 2 });
  try {
    for (const n of CONCURRENCY) rows.push(await measure('one node', tcp, () => [tcp], n));
  } finally {
    tcp.disconnect();
    await single.stop();
  }
  const cluster = await startRedisCluster(3);
  const client = redisClusterClient(cluster.urls, 'commands');
  try {
    await readyWithin(client, 10_000);
    for (const n of CONCURRENCY)
      rows.push(await measure('cluster (3 primaries)', client, () => client.nodes('master') as Redis[], n));
  } finally {
    client.disconnect();
    await cluster.stop();
  }
  console.log('| Redis | callers | admissions/s | p99 ms | Redis CPU per admission (µs) |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.redis} | ${r.callers} | ${r.perS} | ${r.p99Ms} | ${r.cpuUsPerCall} |`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
