import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from '../support/api-harness';
import { startApiProcess } from '../support/api-process';
import { TestAgentServer } from '../support/agent-server';
import { fileDispute, paidExecute, resolveDispute } from '../support/disputes';
import { registerAgent } from '../support/factories';
import { seedCharge } from '../support/money';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n;
const [INFO, WARN] = [30, 40];

type Line = Record<string, any>;

/**
 * Issue 30: one log line for each domain event, named by it, at its level (an agent's failure is
 * a warning), read from the api's and the worker's own output: an execution completed (agent,
 * cost) or failed, a settlement confirmed, a dispute filed and resolved, a withdrawal completed,
 * a webhook delivery failed for good.
 */
describe('domain events in the logs (e2e)', () => {
  let harness: ApiHarness;
  let agentServer: TestAgentServer;
  let gone: Server;
  let api: { url: string; process: RunningProcess };
  let worker: RunningProcess;
  let agentId: string;
  const owner = newWallet();
  /** The api process, as the helpers that take a harness want it. */
  let viaProcess: ApiHarness;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    // A webhook receiver that answers 410 Gone: the delivery fails for good at its first attempt.
    gone = createServer((_req, res) => res.writeHead(410).end());
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', () => resolve()));
    harness = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    agentId = (await registerAgent(harness, owner, { endpoints: { execution: agentServer.url } })).body.data.id;
    const hook = await harness.request('POST', '/api/v1/webhooks', {
      body: {
        agentId,
        url: `http://127.0.0.1:${(gone.address() as AddressInfo).port}/hook`,
        events: ['execution.completed'],
      },
      headers: await walletHeaders(owner, agentId, 'POST /api/v1/webhooks'),
    });
    expect(hook.status).toBe(201);
    api = await startApiProcess({ ...harness.env, LOG_LEVEL: 'info' });
    worker = startProcess(builtApp('worker'), { ...harness.env, LOG_LEVEL: 'info' });
    // The worker's outbox relay listens before any event is recorded (else the sweeper relays it, later).
    const ds = harness.app.get(DataSource);
    const listening = async () =>
      (
        await ds.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'agora-outbox-relay' AND query LIKE 'LISTEN%'`,
        )
      ).length > 0;
    await waitFor(listening, "the worker's outbox relay");
    viaProcess = {
      ...harness,
      baseUrl: api.url,
      request: (method, path, opts = {}) => requestTo(api.url, method, path, opts),
    };
  }, 60_000);
  afterAll(async () => {
    for (const p of [api.process, worker]) p.child.kill('SIGTERM');
    await Promise.all([api.process.exited, worker.exited]);
    await harness.close();
    await agentServer.stop();
    await new Promise((resolve) => gone.close(resolve));
  });

  const lines = (p: RunningProcess): Line[] =>
    p
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Line);
  const logged = (p: RunningProcess, msg: string, match: (l: Line) => boolean) =>
    waitFor(async () => {
      const found = lines(p).filter((l) => l.msg === msg && match(l));
      return found.length ? found : undefined;
    }, `${msg} logged`);

  it('logs an execution completed with its agent and cost, and its settlement confirmed, at info; once each', async () => {
    const call = await paidExecute(viaProcess, agentId, newWallet(), PRICE);
    const [done, ...again] = await logged(api.process, 'execution.completed', (l) => l.executionId === call.requestId);
    expect(again).toEqual([]);
    expect(done).toMatchObject({
      level: INFO,
      event: 'execution.completed',
      agentId,
      cost: '0.011000',
      capabilityId: 'translate',
      requestId: expect.any(String),
    });
    const [settled] = await logged(
      api.process,
      'settlement.confirmed',
      (l) => l.payer === call.payer.address.toLowerCase() && l.purpose === 'execution',
    );
    expect(settled).toMatchObject({ level: INFO, amount: '0.011000', paymentId: expect.stringMatching(/^pay_/) });
  });

  it('logs an execution the agent failed as a warning, not an error', async () => {
    const pay = await x402Header(newWallet(), { amount: PRICE, payTo: harness.config.platformWallet });
    const res = await viaProcess.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'x', mode: 'fail' } },
      headers: { [pay.name]: pay.value },
    });
    expect(res.status).toBe(502);
    const [failed] = await logged(
      api.process,
      'execution.failed',
      (l) => l.executionId === res.body.error.details.requestId,
    );
    expect(failed).toMatchObject({ level: WARN, event: 'execution.failed', agentId, error: expect.any(String) });
    expect(lines(api.process).filter((l) => l.level >= 50)).toEqual([]);
  });

  it("logs a dispute filed and resolved, without the client's text", async () => {
    const call = await paidExecute(viaProcess, agentId, newWallet(), PRICE);
    const filed = await fileDispute(viaProcess, call, { reason: 'secret-reason-text-91b2' });
    expect(filed.status).toBe(201);
    const disputeId = filed.body.data.disputeId as string;
    const [line] = await logged(api.process, 'dispute.filed', (l) => l.disputeId === disputeId);
    expect(line).toMatchObject({ level: INFO, agentId, transactionId: call.transactionId });
    expect(api.process.output()).not.toContain('secret-reason-text-91b2');
    expect((await resolveDispute(viaProcess, disputeId, 'agent_wins')).status).toBe(200);
    const [resolved] = await logged(api.process, 'dispute.resolved', (l) => l.disputeId === disputeId);
    expect(resolved).toMatchObject({ level: INFO, agentId, resolution: 'agent_wins' });
  });

  it('logs a withdrawal completed (worker) at info', async () => {
    await seedCharge(harness.app, { agentId, agentFee: 3_000_000n, reputation: 90 });
    const res = await viaProcess.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId, amount: '2.00', destinationWallet: newWallet().address },
      headers: await walletHeaders(owner, agentId, 'POST /api/v1/payments/withdraw'),
    });
    expect(res.status).toBe(201);
    const [line] = await logged(worker, 'withdrawal.completed', (l) => l.withdrawalId === res.body.data.withdrawalId);
    expect(line).toMatchObject({ level: INFO, event: 'withdrawal.completed', agentId });
  });

  it('logs a webhook delivery that failed for good (worker) as a warning', async () => {
    await paidExecute(viaProcess, agentId, newWallet(), PRICE); // its execution.completed goes to the 410 endpoint
    const [line] = await logged(worker, 'delivery.failed', (l) => l.eventType === 'execution.completed');
    expect(line).toMatchObject({
      level: WARN,
      event: 'delivery.failed',
      kind: 'webhook',
      deliveryId: expect.stringMatching(/^dlv_/),
    });
  });
});

async function requestTo(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; headers?: Record<string, string> },
) {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
