/* npm run bench:chain, sessions (issue 34): N calls made through one client-held chain (one x402
   payment of the first call's price plus a budget, settled on chain; the other calls spend the
   budget with the latest token; the chain closed and the rest refunded on chain) against N
   separately paid executes (each settled on chain), at 1 and 20 connections, on anvil (automine),
   evm settlement, the worker running (it pays the refunds). Per scenario: calls per second (from the
   first request to the last answer, the close included), on-chain transactions and gas per call. */
import { Client } from 'pg';
import { request } from 'undici';
import { startChain } from '../../scripts/local-chain';
import { freshDatabase, spawnRole, stopRoles, x402V1Header } from './bench-lib';
import { registerBenchAgent } from './bench-agents';
import { moneyCheck } from './chain-bench-checks';
import { chainBenchEnv, fundedPayers, ROLES_FILE, until } from './chain-bench-roles';

const N = Number(process.env.BENCH_SESSION_CALLS ?? 20);
const ROUNDS = Number(process.env.BENCH_SESSION_ROUNDS ?? 5);
const PRICE = 11_000n; // 0.001 platform fee + 0.010 agent fee
/** The budget of a session: what its N - 1 calls after the first cost, and a margin that comes back. */
const BUDGET = PRICE * BigInt(N - 1) + 50_000n;

export interface SessionRow {
  scenario: 'paid executes' | 'session';
  connections: number;
  calls: number;
  callsPerSecond: number;
  transactions: number;
  gasPerCall: number;
}

const usdc = (m: bigint) => (Number(m) / 1e6).toFixed(6);

async function post(url: string, headers: Record<string, string>, body: unknown) {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = (await res.body.json()) as { data?: any; error?: { code: string } };
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${JSON.stringify(json.error)}`);
  return json.data;
}

/** `count` calls of `run`, at most `connections` at a time. */
async function pooled(count: number, connections: number, run: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(connections, count) }, async () => {
      while (next < count) await run(next++);
    }),
  );
}

export async function benchSessions(): Promise<SessionRow[]> {
  const chain = await startChain({});
  const dbUrl = await freshDatabase('agora_session_bench');
  const db = new Client({ connectionString: dbUrl });
  await db.connect();
  const relayer = chain.account(0);
  const env = chainBenchEnv(chain, dbUrl, 'sessionbench');
  const payers = await fundedPayers(chain, 8);
  const agent = await spawnRole(ROLES_FILE, 'agent');
  const api = await spawnRole(ROLES_FILE, 'api', env);
  const worker = await spawnRole(ROLES_FILE, 'worker', env);
  const children = [agent.child, api.child, worker.child];
  const pay = (i: number, amount: bigint) =>
    x402V1Header(payers[i % payers.length], amount, { usdc: chain.usdcAddress, payTo: relayer.address });
  /** Transactions the platform's wallet sent in blocks (from, to], and their gas. */
  const sent = async (from: number, to: number) => {
    let [transactions, gas] = [0, 0n];
    for (let b = from + 1; b <= to; b++) {
      const receipts = (await chain.provider.send('eth_getBlockReceipts', [`0x${b.toString(16)}`])) as {
        from: string;
        gasUsed: string;
      }[];
      for (const r of receipts ?? [])
        if (r.from.toLowerCase() === relayer.address.toLowerCase())
          [transactions, gas] = [transactions + 1, gas + BigInt(r.gasUsed)];
    }
    return { transactions, gas };
  };
  const refundsPaid = async () =>
    (await db.query(`SELECT count(*)::int AS n FROM refunds WHERE reason = 'chain_unspent' AND status <> 'completed'`))
      .rows[0].n === 0;
  const totals = new Map<string, { ms: number; calls: number; transactions: number; gas: bigint }>();
  let sessions = 0;
  /** Per session: the opening call, the calls after it, the close (ms). */
  const phases = new Map<number, number[][]>();
  try {
    const agentId = await registerBenchAgent(api.url, agent.url, payers[0], chain.usdcAddress, relayer.address);
    const execute = `${api.url}/api/v1/execute`;
    const body = (text: string) => ({ targetAgentId: agentId, capabilityId: 'translate', input: { text } });
    const scenarios = {
      'paid executes': async (connections: number) => {
        const headers = Array.from({ length: N }, (_, i) => pay(i, PRICE));
        const t0 = performance.now();
        await pooled(N, connections, (i) =>
          post(execute, { 'x-payment': headers[i] }, body(`p${i}`)).then(() => undefined),
        );
        return performance.now() - t0;
      },
      session: async (connections: number) => {
        const header = pay(sessions++, PRICE + BUDGET);
        const t0 = performance.now();
        const root = await post(execute, { 'x-payment': header }, { ...body('s0'), chain: { budget: usdc(BUDGET) } });
        const t1 = performance.now();
        let token: string = root.chain.childToken;
        await pooled(N - 1, connections, async (i) => {
          const answer = await post(execute, { 'x-chain-token': token }, body(`s${i + 1}`));
          token = answer.chain.childToken;
        });
        const t2 = performance.now();
        const closed = await post(
          `${api.url}/api/v1/chains/${root.chain.chainId}/close`,
          { 'x-chain-token': token },
          {},
        );
        const ms = performance.now() - t0;
        phases.set(connections, [...(phases.get(connections) ?? []), [t1 - t0, t2 - t1, performance.now() - t2]]);
        if (closed.refund?.amount !== usdc(BUDGET - PRICE * BigInt(N - 1)))
          throw new Error(`session refund ${closed.refund?.amount}, expected ${usdc(BUDGET - PRICE * BigInt(N - 1))}`);
        return ms;
      },
    };
    for (const connections of [1, 20]) {
      for (let round = 0; round < ROUNDS; round++) {
        for (const [name, run] of Object.entries(scenarios)) {
          const b0 = await chain.provider.getBlockNumber();
          const ms = await run(connections);
          // Settlements and refunds of this round, on chain, before it is counted.
          await until(
            async () =>
              (await db.query(`SELECT count(*)::int AS n FROM payments WHERE status NOT IN ('settled', 'released')`))
                .rows[0].n === 0 && (await refundsPaid()),
            `${name} settled`,
          );
          const { transactions, gas } = await sent(b0, await chain.provider.getBlockNumber());
          const key = `${name}\n${connections}`;
          const t = totals.get(key) ?? { ms: 0, calls: 0, transactions: 0, gas: 0n };
          totals.set(key, {
            ms: t.ms + ms,
            calls: t.calls + N,
            transactions: t.transactions + transactions,
            gas: t.gas + gas,
          });
        }
      }
      const avg = (k: number) => (phases.get(connections)!.reduce((t, p) => t + p[k], 0) / ROUNDS).toFixed(1);
      process.stdout.write(
        `sessions: ${connections} connection(s), ${ROUNDS} rounds of ${N} calls each way; a session: opening call ${avg(0)} ms, ${N - 1} calls ${avg(1)} ms, close ${avg(2)} ms\n`,
      );
    }
    // Every refund equals the budget minus what the calls cost (checked per close above); the ledger holds.
    await moneyCheck('sessions', db, chain, relayer.address, dbUrl);
  } finally {
    await stopRoles(children);
    await db.end();
    await chain.stop();
  }
  return [...totals.entries()].map(([key, t]) => {
    const [scenario, connections] = key.split('\n');
    return {
      scenario: scenario as SessionRow['scenario'],
      connections: Number(connections),
      calls: t.calls,
      callsPerSecond: Math.round((t.calls / (t.ms / 1000)) * 10) / 10,
      transactions: t.transactions,
      gasPerCall: Math.round(Number(t.gas) / t.calls),
    };
  });
}

/** The table, each session row with its ratios to the paid executes of the same connections. */
export function sessionTable(rows: SessionRow[]): string {
  const lines = [
    `\nSessions: ${N} calls through one session against ${N} paid executes (evm, automine), ${ROUNDS} rounds each\n`,
    '| scenario | connections | calls | calls/s | x paid calls/s | on-chain transactions | gas per call | x paid gas |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const paid = rows.find((p) => p.scenario === 'paid executes' && p.connections === r.connections)!;
    const mine = r.scenario === 'session';
    lines.push(
      `| ${r.scenario} | ${r.connections} | ${r.calls} | ${r.callsPerSecond} | ${mine ? (r.callsPerSecond / paid.callsPerSecond).toFixed(2) : '-'} | ${r.transactions} | ${r.gasPerCall} | ${mine ? (r.gasPerCall / paid.gasPerCall).toFixed(3) : '-'} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
