/* (c) of npm run bench:schema (test/bench/schema-bench.ts): issue 29's budget-check flood, as
   test/e2e/abuse-rate-limits.e2e-spec.ts sends it (its 429s are asserted there; the latency it
   causes is measured here). HEAVY_AGENTS agents with HEAVY_CAPABILITIES of the largest input
   schemas each (they do not fit the validator cache, so a budget check cycling through them
   compiles every time), then FLOOD budget checks from one address at FLOOD_PER_S a second while
   GET /api/v1/health/live is probed every 20 ms: the probes' p50, p95, p99 and max (target p99 < 100 ms). */
import { Wallet } from 'ethers';
import { loadConfig } from '@app/config';
import { FLOOD, FLOOD_PER_S, HEAVY_AGENTS, HEAVY_CAPABILITIES, heavySchema } from '../support/abuse-rate-limits';
import { x402Header } from '../support/x402';
import { fmt, ms, pct, sleep, table } from './schema-bench-lib';

async function registerHeavy(url: string, a: number): Promise<string> {
  const owner = new Wallet(Wallet.createRandom().privateKey);
  const pay = await x402Header(owner, { amount: 100_000n, payTo: loadConfig({ NODE_ENV: 'test' }).platformWallet });
  const res = await fetch(`${url}/api/v1/agents`, {
    method: 'POST',
    // Each from its own address: the set-up does not spend one address's writes window.
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${a + 1}`, [pay.name]: pay.value },
    body: JSON.stringify({
      wallet: owner.address,
      name: `Heavy ${a}`,
      description: 'Input schemas that do not fit the validator cache',
      capabilities: Array.from({ length: HEAVY_CAPABILITIES }, (_, c) => ({
        id: `c${c}`,
        name: `c${c}`,
        description: `c${c}`,
        inputSchema: heavySchema(`${a.toString(36)}c${c}`),
        pricing: { model: 'per-request', basePrice: '0.01', currency: 'USDC' },
      })),
      endpoints: { execution: 'http://127.0.0.1:9/execute' },
    }),
  });
  const body = (await res.json()) as { data?: { id: string } };
  if (res.status !== 201 || !body.data) throw new Error(`registration answered ${res.status}`);
  return body.data.id;
}

/** The flood on the api at `url`, with /health/live probed meanwhile: prints the statuses and the probes' latency. */
export async function budgetCheckFlood(url: string): Promise<void> {
  const targets: { targetAgentId: string; capabilityId: string }[] = [];
  for (let a = 0; a < HEAVY_AGENTS; a++) {
    const id = await registerHeavy(url, a);
    for (let c = 0; c < HEAVY_CAPABILITIES; c++) targets.push({ targetAgentId: id, capabilityId: `c${c}` });
  }
  const health: number[] = [];
  let flooding = true;
  const probe = (async () => {
    while (flooding) {
      const t0 = process.hrtime.bigint();
      const res = await fetch(`${url}/api/v1/health/live`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`health/live answered ${res.status}`);
      health.push(ms(t0));
      await sleep(20);
    }
  })();
  const started = Date.now();
  const answers: Promise<number>[] = [];
  for (let i = 0; i < FLOOD; i++) {
    const due = started + (i * 1000) / FLOOD_PER_S;
    if (due > Date.now()) await sleep(due - Date.now());
    const res = fetch(`${url}/api/v1/chains/budget-check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.5' },
      body: JSON.stringify({ ...targets[i % targets.length], input: { p0: 'ab12' } }),
    });
    answers.push(res.then(async (r) => (await r.arrayBuffer(), r.status)));
  }
  const statuses = await Promise.all(answers);
  const floodS = (Date.now() - started) / 1000;
  flooding = false;
  await probe;
  health.sort((a, b) => a - b);
  const counted = statuses.reduce<Record<number, number>>((n, s) => ({ ...n, [s]: (n[s] ?? 0) + 1 }), {});
  process.stdout.write(
    `(c) budget-check flood: ${FLOOD} from one address at ${FLOOD_PER_S}/s over ${targets.length} heavy schemas ` +
      `(${floodS.toFixed(1)} s; statuses ${JSON.stringify(counted)}), GET /api/v1/health/live every 20 ms\n\n`,
  );
  table(
    ['/api/v1/health/live', 'probes', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'],
    [['during the flood', String(health.length), ...[50, 95, 99].map((p) => fmt(pct(health, p))), fmt(health.at(-1)!)]],
  );
  const p99 = pct(health, 99);
  process.stdout.write(
    `health/live p99 during the flood: ${p99.toFixed(1)} ms (target < 100 ms: ${p99 < 100 ? 'met' : 'NOT met'})\n`,
  );
}
