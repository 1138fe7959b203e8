import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CHAIN_CHECKS } from '@app/chains';
import { DISPUTE_CHECKS } from '@app/disputes';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { propertyRuns } from '../support/property-runs';
import { withClient } from '../support/test-db';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';
import { prng } from '../support/prng';

const PRICE = 11_000n;
/** 500 in CI (the issue's figure); FC_RUNS=<n> for more by hand. */
const KEYS = propertyRuns(500);
const CONCURRENCY = 25;
/** Bounds a key's retries (a sync run cut off by a kill left nothing, and its client's next retry runs it). */
const KEY_DEADLINE_MS = 120_000;

/**
 * G5 (reliability.md): Postgres connections of the api are killed (`pg_terminate_backend`) at
 * random moments while executes with idempotency keys run and are retried by their clients (each
 * retry carries a fresh payment, as x402 clients sign one per attempt). Every key ends charged
 * exactly once (one execution, one transaction, one settled payment), no journal transaction is
 * partial, a kill is answered 503 (never 500), and I1-I10 hold. The seed is printed; FAULT_SEED=<n> replays the kill schedule.
 */
describe('faults: Postgres connections killed during executes with idempotency keys (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  let agentId: string;
  let worker: RunningProcess;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_CLIENT_PER_MIN: '1000000',
      RATE_LIMIT_AGENT_PER_MIN: '1000000',
      DATABASE_POOL_SIZE: '8',
      // What a killed connection leaves (a claimed execution, a settling payment) is the worker's after these leases.
      // 5 s, not 2: the agent answers from this jest process, which a busy machine can stall past 2 s;
      // a run timed out by that is a 504 for good, not a kill's doing.
      EXECUTION_TIMEOUT_MS: '5000',
      // A run cut off by a kill holds its claim this long past the timeout before the worker takes it
      // (a minute by default, for settling on a chain; this test settles in Postgres). Each such key
      // waited 65 s before, and the test took 7-8 minutes of the CI run.
      RUN_CLAIM_GRACE_MS: '3000',
      SETTLEMENT_LEASE_MS: '1000',
      MAINTENANCE_INTERVAL_MS: '500',
      WORKER_HEARTBEAT_MS: '200',
    });
    ds = api.app.get(DataSource);
    const res = await registerAgent(api, newWallet(), {
      endpoints: { execution: agentServer.url },
      capabilities: [capabilityPayload()],
    });
    expect(res.status).toBe(201);
    agentId = res.body.data.id;
    worker = startProcess(builtApp('worker'), api.env);
    await waitFor(async () => (await api.request('GET', '/api/v1/health/worker')).status === 200, 'the worker');
  });
  afterAll(async () => {
    worker.child.kill('SIGTERM');
    await worker.exited;
    await api.close();
    await agentServer.stop();
  });

  it(`${KEYS} idempotent executes, their retries and connection kills: each key charged once, invariants hold`, async () => {
    const seed = Number(process.env.FAULT_SEED ?? Math.floor(Math.random() * 2 ** 31));
    process.stdout.write(
      `pg-terminate fault test: seed ${seed} (FAULT_SEED=${seed} replays the kill schedule), ${KEYS} keys\n`,
    );
    const random = prng(seed);
    const dbName = new URL(api.databaseUrl).pathname.slice(1);
    let kills = 0;
    let stop = false;
    const killer = (async () => {
      while (!stop) {
        await new Promise((r) => setTimeout(r, 5 + Math.floor(random() * 40)));
        const killed = await withClient(api.databaseUrl, (c) =>
          c.query(
            `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM (
               SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'agora-api' AND pid <> pg_backend_pid() ORDER BY random() LIMIT $2) p`,
            [dbName, 1 + Math.floor(random() * 2)],
          ),
        );
        kills += killed.rows[0].n;
      }
    })();

    // Every error the api answers 500 for is logged with its id, class and code (error-response.ts);
    // the api runs in this process, so they are read here and printed if any 5xx but 503 came back.
    const unexpected: unknown[] = [];
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(function (this: Logger, message: unknown) {
      const m = message as { errorId?: string; kind?: unknown; err?: Error };
      if (m?.errorId)
        unexpected.push({
          errorId: m.errorId,
          kind: m.kind,
          message: m.err?.message,
          stack: m.err?.stack?.split('\n').slice(0, 8).join('\n'),
        });
    });

    const wallets = Array.from({ length: 20 }, () => newWallet());
    const outcomes = { first: 0, retried: 0, tries: 0, statuses: {} as Record<string, number> };
    const runKey = async (i: number) => {
      const payer = wallets[i % wallets.length];
      const body = {
        targetAgentId: agentId,
        capabilityId: 'translate',
        input: { text: `key ${i}` },
        idempotencyKey: `g5-${seed}-${i}`,
      };
      const deadline = Date.now() + KEY_DEADLINE_MS;
      for (let attempt = 1; Date.now() < deadline; attempt++) {
        outcomes.tries++;
        const h = await x402Header(payer, { amount: PRICE, payTo: api.config.platformWallet });
        const res = await api
          .request('POST', '/api/v1/execute', { body, headers: { [h.name]: h.value } })
          .catch(() => ({ status: 0, body: null }) as const);
        const key = `${res.status}${res.body?.error ? ` ${res.body.error.code}` : ''}`;
        outcomes.statuses[key] = (outcomes.statuses[key] ?? 0) + 1;
        if (res.status === 200 && res.body.data.transactionId) {
          if (attempt === 1) outcomes.first++;
          else outcomes.retried++;
          return;
        }
        // A kill's 503 (the run's transaction rolled back, nothing charged) or an error: retried with a new payment.
        await new Promise((r) => setTimeout(r, Math.min(50 * attempt, 1_000)));
      }
      throw new Error(
        `key ${i} was never answered with its charge within ${KEY_DEADLINE_MS} ms: ${JSON.stringify(outcomes.statuses)}`,
      );
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < KEYS) await runKey(next++);
      }),
    );
    stop = true;
    await killer;
    logged.mockRestore();
    process.stdout.write(
      `pg-terminate fault test: ${kills} connections killed; ${outcomes.first} keys charged at the first try, ${outcomes.retried} after retries; ${outcomes.tries} requests; answers ${JSON.stringify(outcomes.statuses)}\n`,
    );

    // A killed connection is the service momentarily unavailable (503, Retry-After), never a 500:
    // the connection-loss errors (ECONNRESET, "not queryable") were 500s until this asserted it.
    // On failure this prints each such error: its class, code, message and where it was thrown.
    const other5xx = Object.keys(outcomes.statuses).filter((k) => k.startsWith('5') && k !== '503 SERVICE_UNAVAILABLE');
    expect({ other5xx, unexpected }).toEqual({ other5xx: [], unexpected: [] });
    const [per] = await ds.query(
      `SELECT count(*)::int AS keys, count(*) FILTER (WHERE k.executions = 1 AND k.charges = 1)::int AS once
         FROM (SELECT i.key, (SELECT count(*) FROM executions e WHERE e.id = i.execution_id) AS executions,
                      (SELECT count(*) FROM transactions t JOIN executions e ON e.transaction_id = t.id WHERE e.id = i.execution_id) AS charges
                 FROM idempotency_keys i WHERE i.key LIKE $1) k`,
      [`g5-${seed}-%`],
    );
    expect(per).toEqual({ keys: KEYS, once: KEYS });
    const [totals] = await ds.query(
      `SELECT (SELECT count(*) FROM transactions)::int AS charges,
              (SELECT count(*) FROM payments WHERE purpose = 'execution' AND status = 'settled')::int AS settled`,
    );
    expect(totals).toEqual({ charges: KEYS, settled: KEYS });
    const report = await runInvariantChecks(ds.manager, [
      ...LEDGER_CHECKS,
      ...PAYMENT_CHECKS,
      ...CHAIN_CHECKS,
      ...DISPUTE_CHECKS,
    ]);
    expect(report.results.filter((r) => r.violations.length)).toEqual([]);
    expect(kills).toBeGreaterThan(0);
  }, 600_000);
});
