/* npm run bench:chain: agora in `evm` mode beside the public x402 reference stack, on one anvil
   chain with the same token and the same example agent.
     agora      POST /api/v1/execute (sync): verify, preflight, agent, settle on chain, charge
     chained    POST /api/v1/execute with X-Chain-Token: a sub-call paid from a chain's budget (the
                chain's root paid on chain once), nothing settled per call
     reference  @x402/express middleware + the reference facilitator (@x402/core + @x402/evm exact,
                viem with a nonce manager) in front of the agent; settles each payment before answering.
                Two rows: tuned as a team choosing it for speed would (receipts polled every 50 ms;
                ratios are to it), and the examples' defaults (viem's 1 s polling on baseSepolia)
   at 1 and 20 connections, on automine and with 1-second blocks, then the async drain: 500
   executions accepted (202) and settled by the worker. Gas per settlement is read from the
   receipts of each side's transactions. Every run ends with ledger:check and the count of
   on-chain authorizations used by agora equal to the count of paid answers. */
import { Client } from 'pg';
import { startChain } from '../../scripts/local-chain';
import {
  freshDatabase,
  load,
  openHeldChain,
  RequestHeaders,
  Row,
  spawnRole,
  stopRoles,
  x402V1Header,
} from './bench-lib';
import { chainBenchEnv, cpuNow, cpuPerRequest, fundedPayers, gasOf, ROLES_FILE, until } from './chain-bench-roles';
import { referencePaymentHeaders } from './reference-stack';
import { registerBenchAgent } from './bench-agents';
import { moneyCheck, nonceRecoveryMs } from './chain-bench-checks';
import { benchSessions, sessionTable } from './chain-bench-sessions';
import { benchDrain } from './chain-bench-drain';

const DB = 'agora_chain_bench';
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
/** With 1-second blocks a run's first and last second hold no complete answers: a longer run shows the steady rate. */
const BLOCK_DURATION_S = Number(process.env.BENCH_BLOCK_SECONDS ?? 20);
const WARMUP_S = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const DRAIN = Number(process.env.BENCH_DRAIN ?? 500);
const PRICE = 11_000n; // 0.001 platform fee + 0.010 agent fee
/** Also run sub-calls paid from a chain's budget (BENCH_CHAINED=0 to leave them out). */
const CHAINED = process.env.BENCH_CHAINED !== '0';
/** The row the ratios are to: the reference tuned for speed. */
const REFERENCE = 'reference x402 (tuned: 50 ms polling)';

interface ChainRow extends Row {
  chain: string;
  /** CPU ms per answered request of the serving processes, anvil and Postgres. */
  cpu?: string;
  gasPerSettlement: number;
  settlements: number;
}

async function benchChain(
  label: string,
  blockTime: number | undefined,
  drain: boolean,
  seconds: number,
): Promise<ChainRow[]> {
  const chain = await startChain({ blockTime });
  const dbUrl = await freshDatabase(DB);
  const db = new Client({ connectionString: dbUrl });
  await db.connect();
  const relayer = chain.account(0);
  const [examplesKey, tunedKey] = [chain.account(1), chain.account(2)];
  const env = chainBenchEnv(chain, dbUrl, 'chainbench');
  const payers = await fundedPayers(chain, 16);

  const agent = await spawnRole(ROLES_FILE, 'agent');
  const api = await spawnRole(ROLES_FILE, 'api', env);
  const referenceStack = async (key: typeof examplesKey, pollMs?: number) => {
    const facilitator = await spawnRole(ROLES_FILE, 'facilitator', {
      ...env,
      BENCH_FACILITATOR_KEY: key.privateKey,
      ...(pollMs ? { BENCH_REF_POLL_MS: String(pollMs) } : {}),
    });
    const server = await spawnRole(ROLES_FILE, 'reference', {
      ...env,
      BENCH_FACILITATOR_URL: facilitator.url,
      BENCH_AGENT_URL: agent.url,
      BENCH_PAY_TO: relayer.address,
    });
    return { url: server.url, sender: key.address, children: [server.child, facilitator.child] };
  };
  const tuned = await referenceStack(tunedKey, 50);
  const examples = await referenceStack(examplesKey);
  const children = [agent.child, api.child, ...tuned.children, ...examples.children];
  // The worker starts for the drain (or before the final check): the drain measures it alone, on a full queue.
  const startWorker = async () => {
    const worker = await spawnRole(ROLES_FILE, 'worker', env);
    children.push(worker.child);
    return worker;
  };
  const rows: ChainRow[] = [];
  try {
    const agoraHeaders = (count: number): RequestHeaders[] =>
      Array.from({ length: count }, (_, i) => ({
        'x-payment': x402V1Header(payers[i % payers.length], PRICE, {
          usdc: chain.usdcAddress,
          payTo: relayer.address,
        }),
      }));
    const agentId = await registerBenchAgent(api.url, agent.url, payers[0], chain.usdcAddress, relayer.address);
    const executeBody = JSON.stringify({ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'hi' } });
    // A chain whose root (paid on chain: 0.011 + a 1000.00 budget) stays open through the runs: sub-calls spend its budget, nothing settles per call.
    const held = CHAINED
      ? await openHeldChain(api.url, {
          holder: payers[1],
          register: (w) => x402V1Header(w, 100_000n, { usdc: chain.usdcAddress, payTo: relayer.address }),
          root: () =>
            x402V1Header(payers[2], PRICE + 1_000_000_000n, { usdc: chain.usdcAddress, payTo: relayer.address }),
        })
      : null;
    const agentBody = JSON.stringify({ requestId: 'r', capabilityId: 'translate', input: { text: 'hi' } });

    for (const connections of (process.env.BENCH_CONNECTIONS ?? '1,20').split(',').filter(Boolean).map(Number)) {
      const rate = connections === 1 ? 150 : 400;
      const [warmSize, runSize] = [Math.ceil(WARMUP_S * rate), Math.ceil(seconds * rate)];
      process.stdout.write(
        `${label}, ${connections} connection(s): signing ${warmSize + runSize} headers per stack...\n`,
      );
      const wallets = payers.map((p) => p.privateKey);
      const refHeaders = async (url: string, count: number) =>
        (await referencePaymentHeaders({ serverUrl: url, wallets, count })).map((h) => ({
          [h.header]: h.value,
        }));
      // Separate pools for the warm-up and the run: a request cut off at the end of a run may still have reached the server.
      const referenceRow = async (name: string, ref: typeof tuned) => ({
        name,
        url: `${ref.url}/execute`,
        body: agentBody,
        pools: [await refHeaders(ref.url, warmSize), await refHeaders(ref.url, runSize)],
        sender: ref.sender,
        servers: ref.children.map((c) => c.pid),
      });
      const stacks = [
        await referenceRow(REFERENCE, tuned),
        await referenceRow('reference x402 (examples: 1 s polling)', examples),
        {
          name: 'agora evm',
          url: `${api.url}/api/v1/execute`,
          body: executeBody,
          pools: [agoraHeaders(warmSize), agoraHeaders(runSize)],
          sender: relayer.address,
          servers: [api.child.pid],
        },
        ...(held
          ? [
              {
                name: 'agora chained sub-call',
                url: `${api.url}/api/v1/execute`,
                body: executeBody,
                // The same token every time (it costs nothing to repeat): pools sized for a local-speed rate.
                pools: [WARMUP_S, seconds].map((t) =>
                  Array.from({ length: Math.ceil(t * 3_000) }, () => ({ 'x-chain-token': held.token })),
                ),
                sender: relayer.address,
                servers: [api.child.pid],
              },
            ]
          : []),
      ];
      for (const s of stacks) {
        await load(s.name, connections, { url: s.url, body: s.body, pool: s.pools[0], seconds: WARMUP_S });
        const b0 = await chain.provider.getBlockNumber();
        const cpu0 = cpuNow(s.servers);
        const row = await load(s.name, connections, { url: s.url, body: s.body, pool: s.pools[1], seconds });
        const cpu = cpuPerRequest(cpu0, cpuNow(s.servers), row.ok ?? 0);
        if (s.name === 'agora evm') {
          // Settlements of answered requests still being mined count for this run's gas.
          await until(
            async () =>
              (await db.query(`SELECT count(*)::int AS n FROM payments WHERE status NOT IN ('settled', 'released')`))
                .rows[0].n === 0,
            'agora settlements',
          );
        }
        const { gas, settlements } = await gasOf(chain, s.sender, b0, await chain.provider.getBlockNumber());
        rows.push({
          ...row,
          chain: label,
          settlements,
          cpu,
          gasPerSettlement: settlements ? Number(gas / BigInt(settlements)) : NaN,
        });
        process.stdout.write(
          `  ${s.name}: ${row.rps} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, ${rows.at(-1)!.gasPerSettlement} gas/settlement, non-2xx ${row.non2xx}, CPU ms/req ${cpu}\n`,
        );
      }
    }

    if (drain) {
      const on = { db, chain, label, apiUrl: api.url, agentUrl: agent.url, hot: relayer.address, count: DRAIN };
      rows.push(
        await benchDrain(on, { headers: agoraHeaders, startWorker: async () => (await startWorker()).child.pid }),
      );
    } else {
      await startWorker(); // retries of anything left unsettled
    }

    // A nonce taken by a transaction sent from the hot wallet outside agora: the next paid execute's settlement recovers.
    if (label === 'automine') {
      const ms = await nonceRecoveryMs(db, chain, relayer, {
        apiUrl: api.url,
        body: executeBody,
        header: agoraHeaders(1)[0]['x-payment'],
      });
      rows.push({
        scenario: 'agora evm after a nonce taken outside agora (ms to a settled answer)',
        connections: 1,
        rps: NaN,
        p50: ms,
        p99: ms,
        non2xx: 0,
        errors: 0,
        chain: label,
        settlements: 1,
        gasPerSettlement: NaN,
      });
      process.stdout.write(`  nonce taken outside agora: the next paid execute settled and answered in ${ms} ms\n`);
    }

    // The chain's root answers now (after the drain, so its final refund transfer is not counted in the drain's gas).
    await held?.release();

    await moneyCheck(label, db, chain, relayer.address, dbUrl);
  } finally {
    await stopRoles(children);
    await db.end();
    await chain.stop();
  }
  return rows;
}

async function main(): Promise<void> {
  const chains = (process.env.BENCH_CHAINS ?? 'automine,blocks').split(',');
  const rows = [
    ...(chains.includes('automine') ? await benchChain('automine', undefined, true, DURATION_S) : []),
    ...(chains.includes('blocks') ? await benchChain('1 s blocks', 1, false, BLOCK_DURATION_S) : []),
  ];
  // Pay once, call many (issue 34): BENCH_SESSIONS=0 leaves it out.
  const sessions = process.env.BENCH_SESSIONS === '0' ? [] : await benchSessions();
  const ref = (r: ChainRow) =>
    rows.find((x) => x.chain === r.chain && x.connections === r.connections && x.scenario === REFERENCE);
  process.stdout.write(
    `\n${WARMUP_S} s of warm-up, then ${DURATION_S} s per run (${BLOCK_DURATION_S} s with 1-second blocks); req/s counts 2xx answers\n\n| chain | scenario | connections | req/s | p50 ms | p99 ms | vs reference | gas per settlement | CPU ms per answer (server / anvil / Postgres) | non-2xx | errors |\n|---|---|---|---|---|---|---|---|---|---|---|\n`,
  );
  for (const r of rows) {
    const base = ref(r);
    const ratio = base && !r.scenario.startsWith('reference x402') ? (r.rps / base.rps).toFixed(2) : '-';
    process.stdout.write(
      `| ${r.chain} | ${r.scenario} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p99} | ${ratio} | ${r.gasPerSettlement} | ${r.cpu ?? '-'} | ${r.non2xx} | ${r.errors} |\n`,
    );
  }
  if (sessions.length) process.stdout.write(sessionTable(sessions));
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err.stack ?? err}\n`);
  process.exit(1);
});
