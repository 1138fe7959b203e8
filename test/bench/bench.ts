/* npm run bench: throughput and latency of
     direct    POST to the example agent
     baseline  a bare NestJS route that proxies to the same agent and writes one ledger transaction
     sync      POST /api/v1/execute (local settlement: verify, reserve, call, settle, charge)
     async     POST /api/v1/execute?async=true (202 once reserved and queued)
     chained   POST /api/v1/execute with X-Chain-Token (a sub-call paid from a chain's budget: no x402
               verification; the root, held open by the bench, holds the token)
   at 1 and 50 connections, with a fresh x402 payment header on every paid request. The load
   generator (autocannon), the agent, the api and the baseline app run in separate processes.
   BENCH_TRACING=1 adds a second api process with OpenTelemetry on (every request sampled,
   exported over OTLP to a sink process) and 'sync /execute traced' right after 'sync /execute'
   in every round: tracing's cost, under the same noise. BENCH_COMPARE='NAME=value ...' does the
   same for a second api with those settings (e.g. RECEIPT_FORMAT=none: what receipts cost).
   Figures go into docs/performance.md. */
import 'reflect-metadata';
import { Wallet } from 'ethers';
import {
  cpuMs,
  freshDatabase,
  load,
  openHeldChain,
  postgresCpuMs,
  procStat,
  TICK_MS,
  x402V1Header,
  RequestHeaders,
  Row,
  spawnRole as spawnRoleOf,
  stopRoles,
} from './bench-lib';
import { DB, DB_URL, ROLES_FILE } from './bench-roles';
import { paymentHeaders } from './bench-x402';
import { printPairedCost, spawnComparedApi, spawnTracedApi } from './bench-variant';

const USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
const PLATFORM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
/** The unreported first round: long enough for V8 to optimise the long execute path (CPU per request was still falling after a 5 s warm-up). */
const WARMUP_S = Number(process.env.BENCH_WARMUP_SECONDS ?? 15);

const header = async (wallet: Wallet, amount: bigint) => x402V1Header(wallet, amount, { usdc: USDC, payTo: PLATFORM });
const headers = async (count: number, amount: bigint, v2?: 'plain' | 'id') =>
  paymentHeaders(count, amount, { usdc: USDC, payTo: PLATFORM, v2 });

const spawnRole = (role: string, env: Record<string, string> = {}) => spawnRoleOf(ROLES_FILE, role, env);
const TRACING = Boolean(process.env.BENCH_TRACING);

async function run(
  name: string,
  connections: number,
  opts: { url: string; body: string; pool?: RequestHeaders[]; server?: number; seconds?: number },
): Promise<Row> {
  const before = { server: cpuMs(opts.server), pg: postgresCpuMs() };
  const f0 = opts.server ? procStat(opts.server) : null;
  const row = await load(name, connections, { ...opts, seconds: opts.seconds ?? DURATION_S });
  // BENCH_SPLIT=1: the serving process's user and system CPU per request, per run.
  if (process.env.BENCH_SPLIT && opts.server && f0) {
    const f1 = procStat(opts.server)!;
    const n = Math.max(1, row.total ?? 1);
    process.stdout.write(
      `    ${name}: user ${(((Number(f1[11]) - Number(f0[11])) * TICK_MS) / n).toFixed(2)} ms/req, system ${(((Number(f1[12]) - Number(f0[12])) * TICK_MS) / n).toFixed(2)} ms/req\n`,
    );
  }
  const requests = row.total ?? 0;
  const perRequest = (ms: number) => Math.round((ms / Math.max(1, requests)) * 100) / 100;
  return {
    ...row,
    serverCpu: opts.server ? perRequest(cpuMs(opts.server) - before.server) : undefined,
    pgCpu: perRequest(postgresCpuMs() - before.pg),
  };
}

/**
 * A chain root that holds its run open: an agent served in this process that keeps the request
 * (and its X-Chain-Token) until released. Answers the token once the root has been called.
 */
async function main(): Promise<void> {
  await freshDatabase(DB);

  // The load generator runs here; the agent, the api and the baseline each in their own process.
  const agent = await spawnRole('agent');
  const api = await spawnRole('api');
  const baselineApp = await spawnRole('baseline', { BENCH_AGENT_URL: agent.url });
  const sink = TRACING ? await spawnRole('sink') : null;
  const compare = process.env.BENCH_COMPARE;
  const traced = sink ? await spawnTracedApi(sink.url) : compare ? await spawnComparedApi(compare) : null;
  const variant = sink ? 'sync /execute traced' : `sync /execute (${compare})`;
  const children = [agent.child, api.child, baselineApp.child, ...[sink, traced].flatMap((p) => (p ? [p.child] : []))];
  const apiUrl = api.url;
  const baselineUrl = baselineApp.url;

  // An agent to execute, registered with a paid registration.
  const owner = new Wallet(Wallet.createRandom().privateKey);
  const reg = await fetch(`${apiUrl}/api/v1/agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-payment': await header(owner, 100_000n) },
    body: JSON.stringify({
      wallet: owner.address,
      name: 'Bench Translator',
      capabilities: [
        {
          id: 'translate',
          name: 'Translate',
          description: 'Upper-cases text',
          pricing: { model: 'per-request', basePrice: '0.01', currency: 'USDC' },
        },
      ],
      endpoints: { execution: agent.url },
    }),
  });
  const agentId = ((await reg.json()) as { data: { id: string } }).data.id;
  // BENCH_AGENT_SCORE: start the agent at this score (100: Excellent, every charge released at once).
  if (process.env.BENCH_AGENT_SCORE) {
    const { Client } = await import('pg');
    const pg = new Client({ connectionString: DB_URL });
    await pg.connect();
    await pg.query(`UPDATE agents SET reputation_score = $2 WHERE id = $1`, [
      agentId,
      Number(process.env.BENCH_AGENT_SCORE),
    ]);
    await pg.end();
  }
  const executeBody = JSON.stringify({ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'hi' } });
  const agentBody = JSON.stringify({ requestId: 'r', capabilityId: 'translate', input: { text: 'hi' } });

  // Rounds interleave the scenarios, so a slow spell of this shared machine hits all of them;
  // each scenario reports its median round, and the ratios compare medians.
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const only = (name: string) => !process.env.BENCH_ONLY || process.env.BENCH_ONLY.split(',').includes(name);
  const rows: Row[] = [];
  for (const connections of (process.env.BENCH_CONNECTIONS ?? '1,50').split(',').map(Number)) {
    process.stdout.write(`signing payment headers for ${connections} connection(s)...\n`);
    // Enough fresh headers for each run at well above today's rates (the run is by time, not
    // by count: a count-bounded autocannon run stops on a whole-second tick and understates).
    const rate = connections === 1 ? 800 : 1_200;
    const warmup = Math.ceil(WARMUP_S * rate);
    const perRound = Math.ceil(DURATION_S * rate);
    // Round 0 warms up (JIT, connection pools, caches) for WARMUP_S and is not reported.
    const syncPool = only('sync') ? await headers(warmup + perRound * rounds, 11_000n) : [];
    const asyncPool = only('async') ? await headers(warmup + perRound * rounds, 11_000n) : [];
    const tracedPool = traced ? await headers(warmup + perRound * rounds, 11_000n) : [];
    // Opt-in (BENCH_ONLY=sync-v2,sync-v2-id): v2 payments without and with an x402 payment identifier.
    const v2Pools = (['plain', 'id'] as const).map(async (kind) =>
      process.env.BENCH_ONLY?.split(',').includes(kind === 'id' ? 'sync-v2-id' : 'sync-v2')
        ? headers(warmup + perRound * rounds, 11_000n, kind)
        : [],
    );
    const [v2Pool, idPool] = await Promise.all(v2Pools);
    // One chain per connection count (1000.00 of budget: 90,909 sub-calls of 0.011), its token on every request.
    const chain = only('chained')
      ? await openHeldChain(apiUrl, {
          register: (w) => header(w, 100_000n),
          root: () => header(owner, 11_000n + 1_000_000_000n),
        })
      : null;
    const chainedPool: RequestHeaders[] = chain
      ? Array.from({ length: warmup + perRound * rounds }, () => ({ 'x-chain-token': chain.token }))
      : [];
    const slice = (pool: RequestHeaders[], round: number) =>
      round === 0 ? pool.slice(0, warmup) : pool.slice(warmup + (round - 1) * perRound, warmup + round * perRound);
    const byScenario = new Map<string, Row[]>();
    const add = (round: number, r: Row) =>
      round > 0 && byScenario.set(r.scenario, [...(byScenario.get(r.scenario) ?? []), r]);
    for (let round = 0; round <= rounds; round++) {
      process.stdout.write(round === 0 ? `  warm-up round (${WARMUP_S} s)\n` : `  round ${round}/${rounds}\n`);
      const seconds = round === 0 ? WARMUP_S : DURATION_S;
      if (only('direct')) add(round, await run('direct', connections, { url: agent.url, body: agentBody, seconds }));
      add(
        round,
        await run('baseline', connections, { url: baselineUrl, body: '{}', server: baselineApp.child.pid, seconds }),
      );
      const plain = async () => {
        if (only('sync'))
          add(
            round,
            await run('sync /execute', connections, {
              url: `${apiUrl}/api/v1/execute`,
              body: executeBody,
              pool: slice(syncPool, round),
              server: api.child.pid,
              seconds,
            }),
          );
      };
      const withTracing = async () => {
        if (traced)
          add(
            round,
            await run(variant, connections, {
              url: `${traced.url}/api/v1/execute`,
              body: executeBody,
              pool: slice(tracedPool, round),
              server: traced.child.pid,
              seconds,
            }),
          );
      };
      // Traced and plain take turns going first: neither always meets the database the other just loaded.
      for (const step of round % 2 ? [plain, withTracing] : [withTracing, plain]) await step();
      for (const [name, pool] of [
        ['sync /execute v2', v2Pool],
        ['sync /execute v2 + payment id', idPool],
      ] as const)
        if (pool.length)
          add(
            round,
            await run(name, connections, {
              url: `${apiUrl}/api/v1/execute`,
              body: executeBody,
              pool: slice(pool, round),
              server: api.child.pid,
              seconds,
            }),
          );
      if (only('async'))
        add(
          round,
          await run('async /execute', connections, {
            url: `${apiUrl}/api/v1/execute?async=true`,
            body: executeBody,
            pool: slice(asyncPool, round),
            server: api.child.pid,
            seconds,
          }),
        );
      if (chain)
        add(
          round,
          await run('chained sub-call', connections, {
            url: `${apiUrl}/api/v1/execute`,
            body: executeBody,
            pool: slice(chainedPool, round),
            server: api.child.pid,
            seconds,
          }),
        );
    }
    await chain?.release();
    for (const results of byScenario.values()) {
      const sorted = [...results].sort((a, b) => a.rps - b.rps);
      const median = sorted[Math.floor(sorted.length / 2)];
      rows.push({
        ...median,
        rounds: results.map((r) => r.rps),
        non2xx: results.reduce((n, r) => n + r.non2xx, 0),
        errors: results.reduce((n, r) => n + r.errors, 0),
      });
    }
  }

  const direct = (c: number) => rows.find((r) => r.scenario === 'direct' && r.connections === c)?.rps ?? NaN;
  const baseline = (c: number) => rows.find((r) => r.scenario === 'baseline' && r.connections === c)!.rps;
  process.stdout.write(
    `\n${WARMUP_S} s of warm-up, then ${rounds} rounds of ${DURATION_S} s; median round shown; CPU ms per request of the serving process and of Postgres (median round)\n\n| scenario | connections | req/s | p50 ms | p99 ms | vs direct | vs baseline | req/s by round | server CPU | Postgres CPU | non-2xx | errors |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n`,
  );
  for (const r of rows) {
    process.stdout.write(
      `| ${r.scenario} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p99} | ${(r.rps / direct(r.connections)).toFixed(2)} | ${(r.rps / baseline(r.connections)).toFixed(2)} | ${r.rounds!.join(' / ')} | ${r.serverCpu ?? '-'} | ${r.pgCpu ?? '-'} | ${r.non2xx} | ${r.errors} |\n`,
    );
  }
  if (traced) printPairedCost(rows, variant);
  if (sink) {
    const seen = (await (await fetch(sink.url)).json()) as { requests: number; bytes: number };
    process.stdout.write(`\nexported: ${seen.requests} OTLP requests, ${(seen.bytes / 1e6).toFixed(1)} MB\n`);
  }
  await stopRoles(children);
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err.stack ?? err}\n`);
  process.exit(1);
});
