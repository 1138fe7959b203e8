import { startOrchestratorAgent, RunningOrchestrator } from '../../examples/orchestrator-agent';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent, orchestrateCapability } from '../support/factories';
import { startApiProcess } from '../support/api-process';
import { JsonReceiver } from '../support/json-receiver';
import { attr, OtlpReceiver, OtlpSpan } from '../support/otlp-receiver';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

/**
 * Issue 18: one trace from POST /api/v1/execute through admission, the agent call (the agent gets
 * its traceparent) and the charge, exported over OTLP by an api process; an async execution's job
 * in the worker is a span linked to the request's trace, as are the outbox fan-out and the webhook
 * delivery, and a withdrawal's payout job; a chain's hops are in the chain's trace. Attributes never
 * carry payment headers.
 */
describe('tracing: OpenTelemetry across api, agent and worker (e2e)', () => {
  let harness: ApiHarness;
  let receiver: OtlpReceiver;
  let agentServer: TestAgentServer;
  const procs: RunningProcess[] = [];
  let base: string;
  let agentId: string;
  let orchestratorId: string;
  let orchestrator: RunningOrchestrator;
  const owner = newWallet();
  const hooks = new JsonReceiver();
  /** Traces exported as OTLP/JSON to the test's receiver, flushed every 100 ms; no metrics or logs. */
  const otelEnv = (extra: Record<string, string>) => ({
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_BSP_SCHEDULE_DELAY: '100',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_LOGS_EXPORTER: 'none',
    ...extra,
  });

  beforeAll(async () => {
    receiver = await new OtlpReceiver().start();
    agentServer = await new TestAgentServer().start();
    await hooks.start();
    harness = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    agentId = (
      await registerAgent(harness, owner, {
        endpoints: { execution: agentServer.url },
        capabilities: [capabilityPayload()],
      })
    ).body.data.id;
    const events = ['execution.completed', 'withdrawal.completed'];
    const hook = await harness.request('POST', '/api/v1/webhooks', {
      body: { agentId, url: hooks.url, events },
      headers: await walletHeaders(owner, agentId, 'POST /api/v1/webhooks'),
    });
    expect(hook.status).toBe(201);
    // The defaults are http and undici; Postgres and Redis statements are asked for.
    const otel = otelEnv({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'http,undici,pg,ioredis' });
    const api = await startApiProcess({ ...harness.env, ...otel, LOG_LEVEL: 'info' });
    procs.push(api.process);
    base = api.url;
    procs.push(startProcess(builtApp('worker'), { ...harness.env, ...otel, LOG_LEVEL: 'warn' }));
    orchestrator = await startOrchestratorAgent({ platformUrl: base });
    orchestratorId = (
      await registerAgent(harness, newWallet(), {
        endpoints: { execution: orchestrator.url },
        capabilities: [orchestrateCapability()],
      })
    ).body.data.id;
    orchestrator.serve(orchestratorId);
  }, 60_000);
  afterAll(async () => {
    for (const p of procs) p.child.kill('SIGTERM');
    await Promise.all(procs.map((p) => p.exited));
    await orchestrator.stop();
    await harness.close();
    await agentServer.stop();
    await hooks.stop();
    await receiver.stop();
  });

  const execute = async (query = '') => {
    const h = await x402Header(newWallet(), { amount: PRICE, payTo: harness.config.platformWallet });
    const res = await fetch(`${base}/api/v1/execute${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [h.name]: h.value },
      body: JSON.stringify({ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'traced' } }),
    });
    return { status: res.status, body: (await res.json()) as any, payment: h.value };
  };

  it('one trace: the HTTP server span, agora.execute, its admission, the agent call and the charge; the agent receives the same trace id', async () => {
    const res = await execute();
    expect(res.status).toBe(200);
    const requestId = res.body.data.requestId;
    const root = await waitFor(
      async () => receiver.spans.find((s) => s.name === 'agora.execute' && attr(s, 'agora.request_id') === requestId),
      'the execute span',
    );
    const trace = () => receiver.spans.filter((s) => s.traceId === root.traceId);
    await waitFor(async () => trace().some((s) => s.name === 'agora.execute.charge') || undefined, 'the charge span');
    const byName = (name: string) => trace().find((s) => s.name === name)!;
    expect(byName('agora.execute.admit').parentSpanId).toBe(root.spanId);
    expect(byName('agora.agent.call').parentSpanId).toBe(root.spanId);
    expect(byName('agora.execute.charge').parentSpanId).toBe(root.spanId);
    expect(attr(root, 'agora.agent_id')).toBe(agentId);
    expect(attr(root, 'agora.cost')).toBe('11000');
    expect(attr(root, 'agora.settlement_status')).toBe('settled');
    // Up the parents to the HTTP server span that started the trace, named by its route; Postgres statements and Redis commands are in it too.
    let top: OtlpSpan = root;
    for (
      let parent = trace().find((s) => s.spanId === top.parentSpanId);
      parent;
      parent = trace().find((s) => s.spanId === top.parentSpanId)
    )
      top = parent;
    expect(top).toMatchObject({ name: 'POST /api/v1/execute', kind: 2 });
    expect(attr(top, 'http.route')).toBe('/api/v1/execute');
    expect(top.parentSpanId ?? '').toBe('');
    expect(
      trace().some((s) => attr(s, 'db.system') === 'postgresql' || attr(s, 'db.system.name') === 'postgresql'),
    ).toBe(true);
    expect(trace().some((s) => attr(s, 'db.system') === 'redis' || attr(s, 'db.system.name') === 'redis')).toBe(true);
    // The agent got a traceparent of this trace, from the span of the HTTP call under agora.agent.call.
    const call = agentServer.calls.find((c) => c.json.requestId === requestId)!;
    const [, traceId, parentId] = TRACEPARENT.exec(String(call.headers.traceparent))!;
    expect(traceId).toBe(root.traceId);
    expect(trace().find((s) => s.spanId === parentId)?.parentSpanId).toBe(byName('agora.agent.call').spanId);
    // The api's log line for the request carries the trace id.
    await waitFor(
      async () => procs[0].output().includes(`"trace_id":"${root.traceId}"`) || undefined,
      'a log line with the trace id',
    );
    // Nothing exported carries the payment header.
    expect(JSON.stringify(receiver.spans)).not.toContain(res.payment.slice(0, 40));
  });

  it("an async execution's run in the worker is a span linked to the request's trace", async () => {
    const res = await execute('?async=true');
    expect(res.status).toBe(202);
    const requestId = res.body.data.jobId;
    const root = await waitFor(
      async () => receiver.spans.find((s) => s.name === 'agora.execute' && attr(s, 'agora.request_id') === requestId),
      'the execute span',
    );
    const job = await waitFor(
      async () =>
        receiver.spans.find(
          (s) =>
            s.service === 'agora-worker' &&
            s.name === 'agora.job execution.run' &&
            (s.links ?? []).some((l) => l.traceId === root.traceId),
        ),
      'the worker job span linked to the request',
      20_000,
    );
    expect(job.links![0].traceId).toBe(root.traceId);
    expect(root.service).toBe('agora-api');
  });

  const spansOf = (traceId: string) => receiver.spans.filter((s) => s.traceId === traceId);
  const linkedTo = (s: OtlpSpan, target: OtlpSpan) =>
    (s.links ?? []).some((l) => l.traceId === target.traceId && l.spanId === target.spanId);

  it("the outbox event and its webhook delivery: the worker's fan-out and delivery spans link to the execution's charge; the receiver gets the delivery's traceparent", async () => {
    const res = await execute();
    expect(res.status).toBe(200);
    const requestId = res.body.data.requestId;
    const root = await waitFor(
      async () => receiver.spans.find((s) => s.name === 'agora.execute' && attr(s, 'agora.request_id') === requestId),
      'the execute span',
    );
    // The event was recorded inside the charge: the row kept the charge span's traceparent.
    const charge = await waitFor(
      async () => spansOf(root.traceId).find((s) => s.name === 'agora.execute.charge'),
      'the charge span',
    );
    const deliver = await waitFor(
      async () => receiver.spans.find((s) => s.name === 'agora.webhook.deliver' && linkedTo(s, charge)),
      "the delivery span linked to the execution's charge",
      20_000,
    );
    expect(deliver).toMatchObject({ service: 'agora-worker' });
    expect(attr(deliver, 'agora.event_type')).toBe('execution.completed');
    expect(attr(deliver, 'agora.attempt')).toBe(1);
    const fanout = receiver.spans.find((s) => s.name === 'agora.webhook.fanout' && linkedTo(s, charge));
    expect(fanout).toMatchObject({ service: 'agora-worker' });
    // The receiver got one traceparent: the HTTP call's, a child of the delivery span.
    const got = await waitFor(
      async () => hooks.received.find((r) => r.body?.data?.requestId === requestId),
      'the webhook',
    );
    const [, traceId, parentId] = TRACEPARENT.exec(String(got.headers.traceparent))!;
    expect(traceId).toBe(deliver.traceId);
    await waitFor(
      async () => spansOf(traceId).find((s) => s.spanId === parentId),
      'the HTTP call span of the delivery',
    );
    expect(spansOf(traceId).find((s) => s.spanId === parentId)!.parentSpanId).toBe(deliver.spanId);
  });
});
