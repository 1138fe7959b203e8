/* npm run drill (docs/operations.md, "The fault drill"): agora in evm settlement mode on loopback (anvil and the
   project's token, a fresh Postgres database, a redis-server of its own, 2 api and 2 worker processes of dist),
   a steady paid load, and one fault after another, each for a bounded time. After each: quiescence (bounded),
   ledger:check and the reconciliation of the chain, the database and what the clients saw. Prints a table and
   exits 1 on any money discrepancy (2 when the drill itself failed). Build first: npm run -s build.
   DRILL_SECONDS (300) the time the run aims at; DRILL_ROUNDS (1) repetitions of the fault list; DRILL_FAULTS
   (all) e.g. "api,redis"; DRILL_CLIENTS (4); DRILL_RECOVERY_S (120) the bound on a fault's recovery;
   DRILL_QUIESCE_S (45) the bound on quiescence after it; DRILL_FINAL_WAIT_S (200) the last wait for work left in flight; DRILL_PROCESS_ENV "K=V,K=V" settings
   added to the api and worker processes. */
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { inFlight, inFlightIds, readChainFacts, readDbFacts, stillInFlight } from './drill-facts';
import { chosenFaults, Fault, resumeAll } from './drill-faults';
import { DrillAgent, fundPayers, Load, registerAgents } from './drill-load';
import { DrillStack, ops, pollUntil, sleep, startStack } from './drill-processes';
import { reconcile, Reconciliation } from './drill-reconcile';
import { failed, FaultRun, summaryTable } from './drill-report';

const env = process.env;
const SECONDS = Number(env.DRILL_SECONDS ?? 300);
const ROUNDS = Math.max(1, Number(env.DRILL_ROUNDS ?? 1));
const CLIENTS = Math.max(1, Number(env.DRILL_CLIENTS ?? 4));
const RECOVERY_S = Number(env.DRILL_RECOVERY_S ?? 120);
const QUIESCE_S = Number(env.DRILL_QUIESCE_S ?? 45);
const FINAL_WAIT_S = Number(env.DRILL_FINAL_WAIT_S ?? 200);
const FAULTS = chosenFaults(env.DRILL_FAULTS);
const PROCESS_ENV = Object.fromEntries(
  (env.DRILL_PROCESS_ENV ?? '')
    .split(',')
    .filter((kv) => kv.includes('='))
    .map((kv) => [kv.slice(0, kv.indexOf('=')).trim(), kv.slice(kv.indexOf('=') + 1).trim()]),
);
const PHASES = 1 + FAULTS.length * ROUNDS;
/** Load before and after each fault: what the time aimed at leaves after setup (~40 s) and the faults and checks (~20 s each). */
const LOAD_S = Math.max(3, Math.floor((SECONDS - 40 - 20 * FAULTS.length * ROUNDS) / (2 * PHASES)));

const log = (line: string) => process.stdout.write(`[drill ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

/** From the fault's end: the first new paid call answered 200, and every row in flight then finished; the later of the two. */
async function recovery(stack: DrillStack, load: Load, endedAt: number): Promise<{ ms: number | null; left: string }> {
  const bound = RECOVERY_S * 1000;
  const ids = await inFlightIds(stack.db).catch(() => [] as string[]);
  const probe = (async () => {
    for (let i = 0; performance.now() - endedAt < bound; i++) {
      const res = await load.execute('probe', { apiUrl: stack.apis[i % stack.apis.length].url });
      if (res.status === 200) return performance.now();
      await sleep(250);
    }
    return null;
  })();
  const drained = pollUntil(async () => (await stillInFlight(stack.db, ids)) === 0, bound).then((ok) =>
    ok ? performance.now() : null,
  );
  const [a, b] = await Promise.all([probe, drained]);
  const at = (t: number | null) => (t === null ? 'never' : `${Math.round(t - endedAt)} ms`);
  log(`  recovery: a paid call answered 200 after ${at(a)}; the ${ids.length} rows in flight finished after ${at(b)}`);
  // What was still in flight at the bound, by kind (the ids' prefixes).
  const kinds: Record<string, string> = {
    pay: 'payments',
    req: 'runs',
    wd: 'withdrawals',
    rfd: 'refunds',
    ctx: 'chain txs',
  };
  const now = new Set(await inFlightIds(stack.db));
  const left = new Map<string, number>();
  for (const id of b === null ? ids.filter((i) => now.has(i)) : []) {
    const kind = kinds[id.split('_')[0]] ?? 'rows';
    left.set(kind, (left.get(kind) ?? 0) + 1);
  }
  const summary = [...left].map(([kind, n]) => `${n} ${kind}`).join(', ');
  if (summary) log(`  still in flight at the bound: ${summary}`);
  return { ms: a === null || b === null ? null : Math.round(Math.max(a, b) - endedAt), left: summary };
}

interface Check {
  ledgerOk: boolean;
  rec: Reconciliation;
  pending: number;
}

async function check(stack: DrillStack, load: Load, boundS: number): Promise<Check> {
  const total = async () => Object.values(await inFlight(stack.db)).reduce((s, n) => s + n, 0);
  await pollUntil(async () => (await total()) === 0, boundS * 1000);
  const pending = await total();
  const ledger = await ops('ledger:check', stack.dbUrl);
  if (ledger.code !== 0) log(`ledger:check FAILED:\n${ledger.out}`);
  // The database first, then the chain: a row read in flight whose transaction is mined meanwhile stays in flight.
  const db = await readDbFacts(stack.db);
  const rec = reconcile(await readChainFacts(stack.chain), db, load.attempts);
  return { ledgerOk: ledger.code === 0, rec, pending };
}

async function phase(stack: DrillStack, load: Load, label: string, fault: Fault | null, prev: Check | null) {
  log(`${label}: ${LOAD_S} s of load${fault ? ', the fault, then as much again' : ''}`);
  load.phase = label;
  load.start(CLIENTS);
  await sleep(LOAD_S * 1000);
  let recovered: Promise<{ ms: number | null; left: string }> = Promise.resolve({ ms: 0, left: '' });
  let ended = 0;
  if (fault) {
    await fault.inject(stack);
    ended = performance.now();
    log(`${label}: fault over`);
    recovered = recovery(stack, load, ended);
  }
  await sleep(LOAD_S * 1000);
  await load.stop();
  const { ms: recoveryMs, left } = await recovered;
  const c = await check(stack, load, QUIESCE_S);
  // Not recovered within the bound, but nothing in flight by the end of the check: an upper bound.
  const doneByMs = recoveryMs === null && c.pending === 0 ? Math.round(performance.now() - ended) : null;
  const known = new Set(prev?.rec.problems ?? []);
  for (const p of c.rec.problems.filter((x) => !known.has(x)).slice(0, 20)) log(`  ${p}`);
  const client = c.rec.byPhase.get(label) ?? { doublePayments: 0, paidRefused: 0, paidOtherError: 0 };
  const run: FaultRun = {
    fault: fault?.name ?? label,
    lost: c.rec.lost - (prev?.rec.lost ?? 0n),
    created: c.rec.created - (prev?.rec.created ?? 0n),
    ...client,
    recoveryMs,
    slow: recoveryMs === null ? { left, doneByMs } : undefined,
    inFlight: c.pending,
    ledgerCheck: c.ledgerOk,
    answers: load.attempts.filter((a) => a.phase === label),
  };
  log(
    `${label}: lost ${run.lost}, created ${run.created}, recovery ${recoveryMs ?? 'none'} ms, in flight ${c.pending}`,
  );
  return { run, check: c };
}

/** The commit checked out, and whether the tree has changes (dist may hold them, or be older). */
function sourceState(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', cwd: __dirname }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      encoding: 'utf8',
      cwd: __dirname,
    }).trim();
    return `${head}${dirty ? ' (with uncommitted changes)' : ''}`;
  } catch {
    return 'unknown (no git)';
  }
}

async function main(): Promise<number> {
  log(`starting: ${FAULTS.length} faults x ${ROUNDS} round(s), ${CLIENTS} clients, ${LOAD_S} s of load per side`);
  const stack = await startStack(PROCESS_ENV);
  let agents: DrillAgent[] = [];
  let stopping = false;
  const cleanup = async () => {
    if (stopping) return;
    stopping = true;
    resumeAll(stack);
    await Promise.all(agents.map((a) => a.stop()));
    await stack.stop();
  };
  const bail = (code: number, why: string) => {
    log(why);
    void cleanup().finally(() => process.exit(code));
  };
  process.once('SIGINT', () => bail(130, 'interrupted: cleaning up'));
  process.once('SIGTERM', () => bail(143, 'terminated: cleaning up'));
  // Bounded whatever happens: past three times the aim, every recovery's bound and the last wait, stop everything.
  const deadline = setTimeout(
    () => bail(2, 'over the time bound: cleaning up'),
    (SECONDS * 3 + FINAL_WAIT_S + RECOVERY_S * FAULTS.length * ROUNDS) * 1000,
  );
  try {
    log(`logs in ${stack.logDir}; database ${stack.dbName}; redis ${stack.redis.url}`);
    log(
      `dist built ${statSync(join(__dirname, '..', '..', 'dist', 'apps', 'api', 'main.js')).mtime.toISOString()}; sources at ${sourceState()}`,
    );
    const payers = await fundPayers(stack.chain, Number(env.DRILL_PAYERS ?? 6));
    agents = await registerAgents(stack.apis[0].url, stack.chain, 3);
    const load = new Load(() => stack.apis.map((a) => a.url), stack.chain, payers, agents);
    const runs: FaultRun[] = [];
    let prev = await phase(stack, load, 'no fault (baseline)', null, null);
    runs.push(prev.run);
    for (let round = 1; round <= ROUNDS; round++)
      for (const fault of FAULTS) {
        prev = await phase(stack, load, `${fault.name} #${round}`, fault, prev.check);
        runs.push(prev.run);
      }
    if (prev.check.pending > 0) {
      log(`${prev.check.pending} rows still in flight: waiting up to ${FINAL_WAIT_S} s for them`);
      const last = await check(stack, load, FINAL_WAIT_S);
      runs.push({
        fault: 'after the last wait',
        lost: last.rec.lost - prev.check.rec.lost,
        created: last.rec.created - prev.check.rec.created,
        doublePayments: 0,
        paidRefused: 0,
        paidOtherError: 0,
        recoveryMs: undefined,
        inFlight: last.pending,
        ledgerCheck: last.ledgerOk,
        answers: [],
      });
      prev = { run: runs.at(-1)!, check: last };
    }
    const end = prev.check;
    process.stdout.write(`\n${summaryTable(runs, RECOVERY_S)}\n\n`);
    process.stdout.write(
      `Totals: ${load.attempts.length} requests; lost ${end.rec.lost}, created ${end.rec.created} micro-USDC; ` +
        `${end.rec.doublePayments} double payments; ${end.rec.paidRefused} paid requests answered 402/503; ` +
        `${end.pending} rows left in flight. Reconciled with the chain: ${end.rec.matched.payments} settled payments, ` +
        `${end.rec.matched.withdrawals} withdrawals, ${end.rec.matched.refunds} refund transfers. Logs: ${stack.logDir}\n`,
    );
    if (end.rec.problems.length)
      process.stdout.write(`Problems:\n${end.rec.problems.map((p) => `  ${p}`).join('\n')}\n`);
    return failed(runs) || end.pending > 0 ? 1 : 0;
  } finally {
    clearTimeout(deadline);
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`drill failed: ${err?.stack ?? err}\n`);
    process.exit(2);
  },
);
