import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { verifyAgoraSignature } from '@agora/sdk';
import { CollectExecutionEvidence } from '@app/execution';
import { PlatformSigner } from '@app/outbound';
import { startApi, ApiHarness } from '../support/api-harness';
import { ADMIN } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { JsonReceiver } from '../support/json-receiver';
import { freePort } from '../support/ports';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { parsePrometheus, sampleValue } from '../support/prometheus';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';
import { CAP, FOUR_MIB_BLOB, ALLOWED_BLOB, SLACK, BEARER, BlobAgent } from '../support/abuse-storage';

/**
 * Issue 29, item 2: the database disk could be filled for about 6 USDC. An agent's answer up to
 * 4 MiB was stored in `executions.output` and again as its callback's body; a self-dealing agent at
 * price 0 paid 0.001 USDC a run. Now: an output over EXECUTION_OUTPUT_MAX_BYTES is a failed run
 * (nothing charged, nothing stored, the answer not read past the cap), a callback references the
 * stored output, old payloads are pruned (EXECUTION_PAYLOAD_RETENTION_DAYS) keeping the rows, money
 * and hashes, and the worker exposes the payload bytes of the agents that store the most.
 */
describe('abuse: filling the database with agent answers (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agent: BlobAgent;
  let receiver: JsonReceiver;
  let worker: RunningProcess;
  let workerMetrics: string;
  let freeAgentId: string;
  let paidAgentId: string;

  beforeAll(async () => {
    agent = await new BlobAgent().start();
    receiver = await new JsonReceiver().start();
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      EXECUTION_PAYLOAD_RETENTION_DAYS: '30',
      STORAGE_METRICS_INTERVAL_MS: '500',
      MAINTENANCE_INTERVAL_MS: '500',
    });
    ds = api.app.get(DataSource);
    const capability = (basePrice: string) =>
      capabilityPayload({
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object' },
        pricing: { model: 'per-request', basePrice, currency: 'USDC' },
      });
    const owner = newWallet();
    const free = await registerAgent(api, owner, {
      endpoints: { execution: agent.url },
      capabilities: [capability('0.000000')],
    });
    expect(free.status).toBe(201);
    freeAgentId = free.body.data.id;
    const paid = await registerAgent(api, newWallet(), {
      endpoints: { execution: agent.url },
      capabilities: [capability('0.010000')],
    });
    expect(paid.status).toBe(201);
    paidAgentId = paid.body.data.id;
    const port = await freePort();
    worker = startProcess(builtApp('worker'), { ...api.env, LOG_LEVEL: 'warn', METRICS_PORT: String(port) });
    workerMetrics = `http://127.0.0.1:${port}/metrics`;
    await waitFor(
      async () => (await fetch(workerMetrics, { headers: BEARER }).catch(() => null))?.status === 200,
      'the worker metrics port',
      30_000,
    );
  }, 90_000);
  afterAll(async () => {
    worker?.child.kill('SIGTERM');
    await worker?.exited;
    await api.close();
    await agent.stop();
    await receiver.stop();
  });

  const execute = async (
    agentId: string,
    input: Record<string, unknown>,
    extra: Record<string, unknown> = {},
    payer: Wallet = newWallet(),
  ) => {
    const amount = agentId === freeAgentId ? 1_000n : 11_000n;
    const payment = await x402Header(payer, { amount, payTo: api.config.platformWallet });
    const res = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input, ...extra },
      headers: { [payment.name]: payment.value },
    });
    return { res, payment };
  };
  const money = async () =>
    (
      await ds.query(
        `SELECT (SELECT count(*) FROM transactions)::int AS charges, (SELECT count(*) FROM ledger_entries)::int AS entries,
                (SELECT count(*) FROM escrow_holds)::int AS holds, (SELECT count(*) FROM payments WHERE status = 'settled')::int AS settled`,
      )
    )[0];
  const databaseBytes = async () =>
    Number((await ds.query(`SELECT pg_database_size(current_database())::bigint AS n`))[0].n);

  it('refuses an agent answering 4 MiB: EXECUTION_FAILED naming the limit, the payer not charged, the output not stored', async () => {
    const before = await money();
    const { res } = await execute(freeAgentId, { size: FOUR_MIB_BLOB });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('EXECUTION_FAILED');
    expect(res.body.error.details.agentError).toMatch(new RegExp(`exceeds the ${CAP}-byte limit`));
    const id = res.body.error.details.requestId;
    const [row] = await ds.query(
      `SELECT status, output IS NULL AS "noOutput", agent_error AS "agentError", transaction_id AS "transactionId" FROM executions WHERE id = $1`,
      [id],
    );
    expect(row).toMatchObject({ status: 'failed', noOutput: true, transactionId: null });
    expect(await money()).toEqual(before);
  });

  it('stops reading an oversized answer soon after the cap instead of buffering all of it', async () => {
    agent.stoppedEarly = [];
    const started = Date.now();
    const { res } = await execute(freeAgentId, { size: FOUR_MIB_BLOB, tail: true });
    expect(res.status).toBe(502);
    expect(res.body.error.details.agentError).toMatch(new RegExp(`exceeds the ${CAP}-byte limit`));
    // The agent sent 512 KiB, more than the cap and its margin, then waited: the platform hung up instead of waiting for the rest.
    expect(
      await waitFor(
        async () => agent.stoppedEarly.length > 0 && agent.stoppedEarly,
        'the agent to finish its answer',
        5_000,
      ),
    ).toEqual([true]);
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('grows the database by at most the cap per execution, whatever the agent answers', async () => {
    const perExecution = async (n: number, size: number) => {
      const start = await databaseBytes();
      for (let i = 0; i < n; i++) {
        const { res } = await execute(freeAgentId, { size }, { callbackUrl: receiver.url });
        expect([200, 502]).toContain(res.status);
      }
      return ((await databaseBytes()) - start) / n;
    };
    // The first completed charge writes the first rows of several tables and their indexes: not counted.
    await perExecution(1, 100);
    const allowed = await perExecution(5, ALLOWED_BLOB);
    const refused = await perExecution(3, FOUR_MIB_BLOB);
    process.stdout.write(
      `abuse-storage: database growth per execution: ${Math.round(allowed)} B (output of ${ALLOWED_BLOB + 11} B), ${Math.round(refused)} B (answer of 4 MiB)\n`,
    );
    expect(allowed).toBeLessThanOrEqual(CAP + SLACK);
    expect(refused).toBeLessThanOrEqual(SLACK);
  });

  it('delivers a large allowed output in the callback, signed, while the callback row does not copy it', async () => {
    receiver.received.length = 0;
    const { res } = await execute(freeAgentId, { size: ALLOWED_BLOB }, { callbackUrl: receiver.url });
    expect(res.status).toBe(200);
    const id = res.body.data.requestId;
    const [row] = await ds.query(
      `SELECT coalesce(octet_length(body), 0) AS bytes FROM webhook_deliveries WHERE kind = 'callback' AND execution_id = $1`,
      [id],
    );
    expect(row.bytes).toBeLessThan(1_024);
    const got = await waitFor(
      async () => receiver.received.find((r) => r.body?.requestId === id),
      'the callback',
      15_000,
    );
    expect(got.body).toEqual({ requestId: id, status: 'completed', output: agent.outputs.get(id) });
    expect(Object.keys(got.body)).toEqual(['requestId', 'status', 'output']);
    const key = api.app.get(PlatformSigner).publicKey;
    expect(verifyAgoraSignature(String(got.headers['x-agora-signature']), 'callback', [id], got.raw, [key])).toBe(true);
  });

  it('prunes the input and output of executions older than the retention, keeping the rows, money and evidence hashes', async () => {
    const payer = newWallet();
    const old = await execute(paidAgentId, { size: 1_000 }, {}, payer);
    expect(old.res.status).toBe(200);
    const young = await execute(paidAgentId, { size: 1_000 });
    expect(young.res.status).toBe(200);
    const oldId = old.res.body.data.requestId;
    const youngId = young.res.body.data.requestId;
    const transactionId = old.res.body.data.transactionId;
    const evidence = api.app.get(CollectExecutionEvidence);
    const [charge] = await ds.query(
      `SELECT id AS "transactionId", payment_id AS "paymentId", providing_agent_id AS "agentId", completed_at AS "chargedAt" FROM transactions WHERE id = $1`,
      [transactionId],
    );
    const factsBefore = (await evidence.execute(charge)).facts;
    const moneyBefore = await ds.query(
      `SELECT status, gross_amount::text, agent_fee::text, platform_fee::text, agent_earnings::text FROM transactions WHERE id = $1`,
      [transactionId],
    );
    await ds.query(`UPDATE executions SET created_at = now() - interval '31 days' WHERE id = $1`, [oldId]);

    // The worker's sweeper runs the prune (MAINTENANCE_INTERVAL_MS 500).
    await waitFor(
      async () =>
        (await ds.query(`SELECT output IS NULL AND input IS NULL AS pruned FROM executions WHERE id = $1`, [oldId]))[0]
          .pruned,
      'the prune',
      20_000,
    );
    const [kept] = await ds.query(
      `SELECT status, settlement_status AS "settlementStatus", transaction_id AS "transactionId", agent_fee::text AS "agentFee" FROM executions WHERE id = $1`,
      [oldId],
    );
    expect(kept).toEqual({ status: 'completed', settlementStatus: 'settled', transactionId, agentFee: '10000' });
    expect(
      await ds.query(
        `SELECT status, gross_amount::text, agent_fee::text, platform_fee::text, agent_earnings::text FROM transactions WHERE id = $1`,
        [transactionId],
      ),
    ).toEqual(moneyBefore);
    const [youngRow] = await ds.query(
      `SELECT output IS NOT NULL AND input IS NOT NULL AS kept FROM executions WHERE id = $1`,
      [youngId],
    );
    expect(youngRow.kept).toBe(true);

    // The payer's read says the output was pruned, and the OpenAPI documents it.
    const read = await api.request('GET', `/api/v1/execute/${oldId}`, {
      headers: { [old.payment.name]: old.payment.value },
    });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ requestId: oldId, status: 'completed', outputPruned: true });
    expect(read.body.data.output).toBeUndefined();

    // Evidence of a dispute filed after the prune carries the same hashes as before it.
    const filed = await api.request('POST', '/api/v1/disputes', {
      body: { transactionId, reason: 'The output was wrong' },
      headers: { [old.payment.name]: old.payment.value },
    });
    expect(filed.status).toBe(201);
    const dispute = await api.request('GET', `/api/v1/disputes/${filed.body.data.disputeId}`, { headers: ADMIN });
    expect(dispute.status).toBe(200);
    const facts = dispute.body.data.platformEvidence.facts;
    expect(factsBefore.inputHash).toMatch(/^[0-9a-f]{64}$/);
    expect(factsBefore.outputHash).toMatch(/^[0-9a-f]{64}$/);
    expect(facts).toMatchObject({ inputHash: factsBefore.inputHash, outputHash: factsBefore.outputHash });
    // The attested facts name no request id (issue 52: it is the payer's, and disputes are public).
    expect(JSON.stringify(dispute.body.data)).not.toContain(oldId);
  });

  it("exposes the payload bytes the agents storing the most hold, on the worker's metrics", async () => {
    const [stored] = await ds.query(
      `SELECT sum(pg_column_size(input) + coalesce(pg_column_size(output), 0))::bigint AS bytes FROM executions WHERE agent_id = $1 AND input IS NOT NULL`,
      [freeAgentId],
    );
    const value = await waitFor(
      async () => {
        const samples = parsePrometheus(await (await fetch(workerMetrics, { headers: BEARER })).text());
        const v = sampleValue(samples, 'agora_agent_execution_payload_bytes', { agent_id: freeAgentId });
        return v >= Number(stored.bytes) ? v : null;
      },
      'the storage gauge',
      15_000,
    );
    expect(value).toBe(Number(stored.bytes));
  });
});
