/* bench:ceiling's sync execute part: 50 connections over 8 agents through 1, 2 and 4 api processes. */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Wallet } from 'ethers';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { CHAIN_CHECKS } from '@app/chains';
import { buildDataSourceOptions } from '@app/database';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { registerBenchAgent } from './bench-agents';
import { cpuMs, freshDatabase, load, postgresCpuMs, spawnRole, stopRoles, TICK_MS } from './bench-lib';
import { DB, DB_URL, ROLES_FILE } from './bench-roles';
import { paymentHeaders } from './bench-x402';

const USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
const PLATFORM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const CONNECTIONS = 50;
const AGENTS = 8;
const WARMUP_S = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
/** Payment headers signed per second of a run: above any rate seen here (a pool that runs dry fails the run). */
const RATE = Number(process.env.BENCH_RATE ?? 500);

interface Cell {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** The machine's cores busy, in %, over the run; CPU ms per request of the api processes, of Postgres, and of the rest (agent, load generator). */
  busyPct: number;
  apiMs: number;
  pgMs: number;
  restMs: number;
}

/** The whole machine's CPU time (ms, all cores) so far: busy (not idle or waiting on I/O) and in all. */
export function machineCpuMs(): { busy: number; total: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const ticks = fields.slice(0, 8).map(Number); // user nice system idle iowait irq softirq steal
  const total = ticks.reduce((s, t) => s + t, 0);
  return { busy: (total - ticks[3] - ticks[4]) * TICK_MS, total: total * TICK_MS };
}

/** CPU used meanwhile: the machine's, the api processes', Postgres's (ms). */
function cpuNow(apiPids: number[]) {
  return { machine: machineCpuMs(), api: apiPids.reduce((s, p) => s + cpuMs(p), 0), pg: postgresCpuMs() };
}

/** Registers AGENTS agents (paid registrations, score 100: every charge released at once); answers their execute bodies. */
async function registerAgents(apiUrl: string, agentUrl: string): Promise<string[]> {
  const bodies: string[] = [];
  const pg = new Client({ connectionString: DB_URL });
  await pg.connect();
  for (let i = 0; i < AGENTS; i++) {
    const owner = new Wallet(Wallet.createRandom().privateKey);
    const id = await registerBenchAgent(apiUrl, agentUrl, owner, USDC, PLATFORM, `Ceiling agent ${i}`);
    await pg.query(`UPDATE agents SET reputation_score = 100 WHERE id = $1`, [id]);
    bodies.push(JSON.stringify({ targetAgentId: id, capabilityId: 'translate', input: { text: 'hi' } }));
  }
  await pg.end();
  return bodies;
}

/** One run: the 50 connections split evenly over the api processes, all at once; req/s summed, the worst p99. */
async function run(urls: string[], bodies: string[], seconds: number, apiPids: number[] = []): Promise<Cell> {
  const per = urls.map((_, i) => Math.floor(CONNECTIONS / urls.length) + (i < CONNECTIONS % urls.length ? 1 : 0));
  const pools = per.map((c) =>
    paymentHeaders(Math.ceil((seconds * RATE * c) / CONNECTIONS), 11_000n, { usdc: USDC, payTo: PLATFORM }),
  );
  const before = cpuNow(apiPids);
  const rows = await Promise.all(
    urls.map((url, i) =>
      load(`api ${i}`, per[i], { url: `${url}/api/v1/execute`, body: bodies[0], bodies, pool: pools[i], seconds }),
    ),
  );
  const after = cpuNow(apiPids);
  const requests = Math.max(1, rows.reduce((s, r) => s + r.rps, 0) * seconds);
  const busy = after.machine.busy - before.machine.busy;
  const [api, pg] = [after.api - before.api, after.pg - before.pg];
  const perReq = (ms: number) => Math.round((ms / requests) * 100) / 100;
  return {
    busyPct: Math.round((100 * busy) / (after.machine.total - before.machine.total)),
    apiMs: perReq(api),
    pgMs: perReq(pg),
    restMs: perReq(busy - api - pg),
    rps: Math.round(rows.reduce((s, r) => s + r.rps, 0) * 10) / 10,
    p99: Math.max(...rows.map((r) => r.p99)),
    non2xx: rows.reduce((s, r) => s + r.non2xx, 0),
    errors: rows.reduce((s, r) => s + r.errors, 0),
  };
}

const CORES = availableParallelism();

/**
 * What more api processes could give at most, from one run's CPU per request: with every core
 * busy, requests per second are at most CORES / (api + Postgres + rest); one api process (one
 * thread) at most 1 / api. So N processes give at most min(N, CORES x api / (api + Postgres + rest))
 * times what one process gives.
 */
function bound(c: Cell): string {
  const all = c.apiMs + c.pgMs + c.restMs;
  return all > 0 ? `${Math.min(4, (CORES * c.apiMs) / all).toFixed(2)}x` : '-';
}

export async function measureExecute(o: {
  apis: number[];
  shards: number[];
  seconds: number;
  rounds: number;
}): Promise<void> {
  await freshDatabase(DB);
  const agent = await spawnRole(ROLES_FILE, 'agent');
  let bodies: string[] | null = null;
  const cells = new Map<string, Cell[]>();
  for (const shards of o.shards) {
    process.stdout.write(`\nLEDGER_SHARDS=${shards}: starting ${Math.max(...o.apis)} api processes\n`);
    const apis = await Promise.all(
      Array.from({ length: Math.max(...o.apis) }, () =>
        spawnRole(ROLES_FILE, 'api', { BENCH_LEDGER_SHARDS: String(shards) }),
      ),
    );
    bodies ??= await registerAgents(apis[0].url, agent.url);
    const urls = apis.map((a) => a.url);
    process.stdout.write(`  warm-up (${WARMUP_S} s, every process)\n`);
    await run(urls, bodies, WARMUP_S);
    for (let round = 1; round <= o.rounds; round++)
      for (const n of o.apis) {
        const cell = await run(
          urls.slice(0, n),
          bodies,
          o.seconds,
          apis.slice(0, n).map((a) => a.child.pid!),
        );
        process.stdout.write(`  round ${round}: ${n} api process(es): ${cell.rps} req/s, p99 ${cell.p99} ms\n`);
        cells.set(`${shards}/${n}`, [...(cells.get(`${shards}/${n}`) ?? []), cell]);
      }
    await stopRoles(apis.map((a) => a.child));
  }
  await stopRoles([agent.child]);

  const ds = new DataSource(buildDataSourceOptions({ url: DB_URL, poolSize: 1 }));
  await ds.initialize();
  const report = await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS, ...CHAIN_CHECKS]);
  await ds.destroy();

  const median = (xs: Cell[]) => [...xs].sort((a, b) => a.rps - b.rps)[Math.floor(xs.length / 2)];
  process.stdout.write(
    `\nsync execute, ${CONNECTIONS} connections over ${AGENTS} agents, ${o.rounds} rounds of ${o.seconds} s (median round)\n\n`,
  );
  process.stdout.write(
    `| LEDGER_SHARDS | api processes | req/s | p99 ms | vs 1 process | req/s by round | non-2xx | errors | cores busy | CPU ms/req: api, Postgres, rest | more processes' bound |\n`,
  );
  process.stdout.write(`|---|---|---|---|---|---|---|---|---|---|---|\n`);
  for (const shards of o.shards) {
    const one = median(cells.get(`${shards}/${o.apis[0]}`)!).rps;
    for (const n of o.apis) {
      const all = cells.get(`${shards}/${n}`)!;
      const m = median(all);
      process.stdout.write(
        `| ${shards} | ${n} | ${m.rps} | ${m.p99} | ${(m.rps / one).toFixed(2)} | ${all.map((c) => c.rps).join(' / ')} | ${all.reduce((s, c) => s + c.non2xx, 0)} | ${all.reduce((s, c) => s + c.errors, 0)} | ${m.busyPct}% | ${m.apiMs} / ${m.pgMs} / ${m.restMs} | ${bound(m)} |\n`,
      );
    }
  }
  process.stdout.write(
    `\ninvariants after the run: ${report.ok ? 'all hold' : 'VIOLATED'}\n` +
      report.results
        .filter((r) => r.violations.length)
        .map((r) => `  ${r.id}: ${r.violations.slice(0, 3).join('; ')}\n`)
        .join(''),
  );
  if (!report.ok) throw new Error('invariants violated after the run');
}
