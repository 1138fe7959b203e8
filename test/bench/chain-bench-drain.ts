/* npm run bench:chain (chain-bench.ts): the async drain. `count` executions are accepted (202) with
   the worker stopped, spread round robin over BENCH_DRAIN_AGENTS agents (one agent alone is held to
   WORKER_AGENT_CONCURRENCY runs at once by the worker's fair shares, as a marketplace's queue is
   not); then the worker starts, and the settlements per second from its start are measured. */
import { Client } from 'pg';
import { request } from 'undici';
import { LocalChain } from '../../scripts/local-chain';
import { RequestHeaders } from './bench-lib';
import { registerBenchAgent } from './bench-agents';
import { cpuNow, cpuPerRequest, fundedPayers, gasOf, until } from './chain-bench-roles';

const DRAIN_AGENTS = Number(process.env.BENCH_DRAIN_AGENTS ?? 8);

export interface DrainRow {
  scenario: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  chain: string;
  settlements: number;
  cpu: string;
  gasPerSettlement: number;
}

export async function benchDrain(
  on: { db: Client; chain: LocalChain; label: string; apiUrl: string; agentUrl: string; hot: string; count: number },
  use: { headers: (count: number) => RequestHeaders[]; startWorker: () => Promise<number | undefined> },
): Promise<DrainRow> {
  const { db, chain } = on;
  const owners = await fundedPayers(chain, DRAIN_AGENTS);
  const agents = await Promise.all(
    owners.map((o) => registerBenchAgent(on.apiUrl, on.agentUrl, o, chain.usdcAddress, on.hot)),
  );
  const pool = use.headers(on.count);
  const bodyOf = (i: number) =>
    JSON.stringify({ targetAgentId: agents[i % agents.length], capabilityId: 'translate', input: { text: 'hi' } });
  const settled = async () =>
    (await db.query(`SELECT count(*)::int AS n FROM payments WHERE purpose = 'execution' AND status = 'settled'`))
      .rows[0].n as number;
  const before = await settled();
  const b0 = await chain.provider.getBlockNumber();
  const t0 = performance.now();
  let next = 0;
  let accepted = 0;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < pool.length) {
        const i = next++;
        const res = await request(`${on.apiUrl}/api/v1/execute?async=true`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...pool[i] },
          body: bodyOf(i),
        });
        await res.body.dump();
        if (res.statusCode === 202) accepted++;
      }
    }),
  );
  const acceptMs = performance.now() - t0;
  const worker = await use.startWorker();
  const tReady = performance.now();
  const atReady = (await settled()) - before;
  const cpu0 = cpuNow([worker]);
  await until(async () => (await settled()) - before >= accepted, 'the async drain', 300_000);
  const seconds = (performance.now() - tReady) / 1000;
  const { gas, settlements } = await gasOf(chain, on.hot, b0, await chain.provider.getBlockNumber());
  const row: DrainRow = {
    scenario: `agora async drain over ${DRAIN_AGENTS} agents (${accepted} accepted at ${Math.round(accepted / (acceptMs / 1000))}/s, then drained by the worker)`,
    connections: 50,
    rps: Math.round(((accepted - atReady) / seconds) * 10) / 10,
    p50: NaN,
    p99: NaN,
    non2xx: on.count - accepted,
    errors: 0,
    chain: on.label,
    settlements,
    cpu: cpuPerRequest(cpu0, cpuNow([worker]), accepted - atReady),
    gasPerSettlement: settlements ? Number(gas / BigInt(settlements)) : NaN,
  };
  process.stdout.write(
    `  async drain: ${accepted - atReady} settled by the worker in ${seconds.toFixed(2)} s: ${row.rps} settlements/s, CPU ms/req ${row.cpu}\n`,
  );
  return row;
}
