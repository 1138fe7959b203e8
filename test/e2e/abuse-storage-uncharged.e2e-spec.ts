import { createHash } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { canonicalJson } from '@app/json-schema';
import { startApi, ApiHarness } from '../support/api-harness';
import { BEARER, blob } from '../support/abuse-storage';
import { capabilityPayload, registerAgent } from '../support/factories';
import { matureSpend } from '../support/payer-spend';
import { freePort } from '../support/ports';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { parsePrometheus, sampleValue } from '../support/prometheus';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

/** PAYLOAD_STORAGE_CAP_BYTES in this test: five charged runs of 200 KB inputs exceed it. */
const CAP = 600_000;
/** An input just under BODY_LIMIT_BYTES (1 MiB) once wrapped in the execute body. */
const MIB_INPUT = 1_040_000;

/** The attacker's own agent: fails (500), answers garbage (output not matching its schema), fails once, or answers. */
class MischiefAgent {
  url = '';
  private server?: Server;
  private seen = new Set<string>();

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const call = JSON.parse(raw) as { requestId: string; input: { mode?: string } };
        const first = !this.seen.has(call.requestId);
        this.seen.add(call.requestId);
        const mode = call.input.mode;
        if (mode === 'fail' || (mode === 'flaky' && first)) return void res.writeHead(500).end('down');
        const output = mode === 'garbage' ? { nonsense: 1 } : { answer: `ok:${call.requestId}` };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ output }));
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/execute`;
    return this;
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const sha256 = (v: unknown) => createHash('sha256').update(canonicalJson(v)).digest('hex');

/**
 * Issue 52, "nothing stored for free": a failed run's input (up to 1 MiB) was kept 30 days: 20 free calls added
 * 20.5 MB. Now a run that moved no money keeps the SHA-256 of its input and output (its input only up to
 * UNCHARGED_INPUT_KEEP_BYTES, for a retry), pruned after UNCHARGED_PAYLOAD_RETENTION_HOURS; what an agent's or
 * a payer's executions hold is capped (PAYLOAD_STORAGE_CAP_BYTES) and measured on the worker's metrics.
 */
describe('abuse: filling the database with free failed runs (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agent: MischiefAgent;
  let worker: RunningProcess;
  let workerMetrics: string;

  const registerOwn = async () => {
    const res = await registerAgent(api, newWallet(), {
      endpoints: { execution: agent.url },
      capabilities: [
        capabilityPayload({
          inputSchema: { type: 'object' },
          outputSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
        }),
      ],
    });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };

  beforeAll(async () => {
    agent = await new MischiefAgent().start();
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      STORAGE_METRICS_INTERVAL_MS: '500',
      MAINTENANCE_INTERVAL_MS: '500',
      PAYLOAD_STORAGE_CAP_BYTES: String(CAP),
      // One paid 0.01 run elsewhere, a filing window old, makes a payer funded (the retry test below).
      FUNDED_PAYER_MIN_SPEND_MICRO: '10000',
    });
    ds = api.app.get(DataSource);
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
  });

  const execute = async (
    agentId: string,
    input: Record<string, unknown>,
    payer: Wallet = newWallet(),
    async = false,
  ) => {
    const payment = await x402Header(payer, { amount: 11_000n, payTo: api.config.platformWallet });
    const res = await api.request('POST', `/api/v1/execute${async ? '?async=true' : ''}`, {
      body: { targetAgentId: agentId, capabilityId: 'translate', input },
      headers: { [payment.name]: payment.value },
    });
    const requestId: string = res.body.data?.requestId ?? res.body.error?.details?.requestId;
    return { res, payment, requestId };
  };
  const row = async (id: string) =>
    (
      await ds.query(
        `SELECT status, input, output, input_sha256 AS "inputSha256", output_sha256 AS "outputSha256", transaction_id AS "transactionId",
                coalesce(pg_column_size(input), 0) + coalesce(pg_column_size(output), 0) AS bytes, payload_pruned_at AS "prunedAt"
           FROM executions WHERE id = $1`,
        [id],
      )
    )[0];
  const tableBytes = async () =>
    Number((await ds.query(`SELECT pg_total_relation_size('executions')::bigint AS n`))[0].n);
  const charges = async () => (await ds.query(`SELECT count(*)::int AS n FROM transactions`))[0].n;

  it('20 free failed runs of ~1 MiB input each add under 100 KB to the database, keeping digests only', async () => {
    const agentId = await registerOwn();
    // The first failed row writes the first pages of the table's indexes: not counted.
    expect((await execute(agentId, { mode: 'fail' })).res.status).toBe(502);
    const chargesBefore = await charges();
    const before = await tableBytes();
    const sent: { id: string; input: Record<string, unknown>; payment: { name: string; value: string } }[] = [];
    for (let i = 0; i < 20; i++) {
      const input = { mode: i % 2 ? 'garbage' : 'fail', blob: blob(MIB_INPUT) };
      const { res, requestId, payment } = await execute(agentId, input);
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('EXECUTION_FAILED');
      sent.push({ id: requestId, input, payment });
    }
    const grown = (await tableBytes()) - before;
    process.stdout.write(`abuse-storage-uncharged: 20 failed runs of 1 MiB input grew executions by ${grown} B\n`);
    expect(grown).toBeLessThan(100_000);
    expect(await charges()).toBe(chargesBefore);
    for (const s of sent) {
      expect(await row(s.id)).toMatchObject({
        status: 'failed',
        input: null,
        output: null,
        inputSha256: sha256(s.input),
        transactionId: null,
        prunedAt: null,
      });
    }
    // The payer's read of a failed run keeps its shape: the status, no output, nothing said pruned.
    const read = await api.request('GET', `/api/v1/execute/${sent[0].id}`, {
      headers: { [sent[0].payment.name]: sent[0].payment.value },
    });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ requestId: sent[0].id, status: 'failed', transactionId: null });
    expect(read.body.data.output).toBeUndefined();
    expect(read.body.data.outputPruned).toBeUndefined();
  });

  it('keeps a small failed input for a retry (charged once), and answers a retry of a large one with INVALID_STATE', async () => {
    const agentId = await registerOwn();
    const small = await execute(agentId, { mode: 'flaky', text: 'hello' });
    expect(small.res.status).toBe(502);
    expect(await row(small.requestId)).toMatchObject({ input: { mode: 'flaky', text: 'hello' } });
    const retried = await api.request('POST', `/api/v1/execute/${small.requestId}/retry`, {
      headers: { [small.payment.name]: small.payment.value },
    });
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ status: 'completed', output: { answer: `ok:${small.requestId}` } });
    const large = await execute(agentId, { mode: 'flaky', blob: blob(4_096) });
    expect(large.res.status).toBe(502);
    const chargesBefore = await charges();
    const refused = await api.request('POST', `/api/v1/execute/${large.requestId}/retry`);
    expect(refused.body.error.code).toBe('INVALID_STATE');
    expect(await charges()).toBe(chargesBefore);
  });

  it("keeps a funded payer's large failed input whole, so the contract's retry still runs it", async () => {
    const payer = newWallet();
    expect((await execute(await registerOwn(), { text: 'paid' }, payer)).res.status).toBe(200);
    await matureSpend(api, [payer]); // its 0.01 can no longer be disputed back: spend
    const input = { mode: 'flaky', blob: blob(4_096) };
    const large = await execute(await registerOwn(), input, payer);
    expect(large.res.status).toBe(502);
    expect((await row(large.requestId)).input).toEqual(input);
    const retried = await api.request('POST', `/api/v1/execute/${large.requestId}/retry`);
    expect([retried.status, retried.body.data?.status]).toEqual([200, 'completed']);
  });

  it('shrinks an async failed run in the transaction that records its failure', async () => {
    const agentId = await registerOwn();
    const input = { mode: 'fail', blob: blob(MIB_INPUT) };
    const { res, requestId } = await execute(agentId, input, newWallet(), true);
    expect(res.status).toBe(202);
    const ended = await waitFor(
      async () => {
        const r = await row(requestId);
        return r.status === 'failed' ? r : null;
      },
      'the worker to run it',
      20_000,
    );
    expect(ended).toMatchObject({ input: null, output: null, inputSha256: sha256(input), transactionId: null });
    expect(ended.bytes).toBe(0);
  });

  it("keeps a charged run's input and output, and its payer reads the output as before", async () => {
    const agentId = await registerOwn();
    const input = { text: 'paid', blob: blob(100_000) };
    const { res, requestId, payment } = await execute(agentId, input);
    expect(res.status).toBe(200);
    expect(res.body.data.transactionId).toMatch(/^tx_/);
    const read = await api.request('GET', `/api/v1/execute/${requestId}`, {
      headers: { [payment.name]: payment.value },
    });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ status: 'completed', output: { answer: `ok:${requestId}` } });
    expect(await row(requestId)).toMatchObject({ input, output: { answer: `ok:${requestId}` }, prunedAt: null });
  });

  it('prunes an uncharged run after UNCHARGED_PAYLOAD_RETENTION_HOURS, keeping its digest', async () => {
    const agentId = await registerOwn();
    const { requestId, payment } = await execute(agentId, { mode: 'fail', text: 'short' });
    expect(await row(requestId)).toMatchObject({ input: { mode: 'fail', text: 'short' } });
    await ds.query(`UPDATE executions SET created_at = now() - interval '25 hours' WHERE id = $1`, [requestId]);
    const pruned = await waitFor(
      async () => {
        const r = await row(requestId);
        return r.prunedAt ? r : null;
      },
      'the prune',
      20_000,
    );
    expect(pruned).toMatchObject({ input: null, inputSha256: sha256({ mode: 'fail', text: 'short' }) });
    const read = await api.request('GET', `/api/v1/execute/${requestId}`, {
      headers: { [payment.name]: payment.value },
    });
    expect(read.body.data).toMatchObject({ status: 'failed', outputPruned: true });
  });

  it("bounds and measures the payload bytes one agent's and one payer's executions hold", async () => {
    const agentId = await registerOwn();
    const payer = newWallet();
    // An honest payer's paid output is not the attacker's to evict: an agent's cap takes uncharged runs only.
    const honest = await execute(agentId, { text: 'honest', blob: blob(200_000) });
    expect(honest.res.status).toBe(200);
    const ids: string[] = [honest.requestId];
    for (let i = 0; i < 5; i++) {
      const { res, requestId } = await execute(agentId, { text: `run ${i}`, blob: blob(200_000) }, payer);
      expect(res.status).toBe(200);
      ids.push(requestId);
    }
    // Charged outputs stay an hour whatever the cap (their payer reads them): these ended longer ago. Measured: gauges.
    await ds.query(`UPDATE executions SET ended_at = now() - interval '2 hours' WHERE id = ANY($1)`, [ids]);
    const held = async (column: 'agent_id' | 'payer', key: string) =>
      Number(
        (
          await ds.query(
            `SELECT coalesce(sum(coalesce(pg_column_size(input), 0) + coalesce(pg_column_size(output), 0)), 0)::bigint AS n
               FROM executions WHERE payload_pruned_at IS NULL AND ${column}::text = $1`,
            [key],
          )
        )[0].n,
      );
    const payerKey = payer.address.toLowerCase();
    await waitFor(async () => (await held('payer', payerKey)) <= CAP, 'the cap to be enforced', 20_000);
    expect((await row(honest.requestId)).prunedAt).toBeNull();
    // The payer's oldest went first (digests kept), the newest stayed.
    const oldest = await row(ids[1]);
    expect(oldest).toMatchObject({ input: null, output: null, inputSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(oldest.prunedAt).not.toBeNull();
    expect((await row(ids[5])).prunedAt).toBeNull();
    const gauges = await waitFor(
      async () => {
        const samples = parsePrometheus(await (await fetch(workerMetrics, { headers: BEARER })).text());
        const a = sampleValue(samples, 'agora_agent_execution_payload_bytes', { agent_id: agentId });
        const p = sampleValue(samples, 'agora_payer_execution_payload_bytes', { payer: payerKey });
        return a > 0 && p > 0 && a === (await held('agent_id', agentId)) ? { a, p } : null;
      },
      'the storage gauges',
      15_000,
    );
    expect(gauges.p).toBeLessThanOrEqual(CAP);
  });
});
