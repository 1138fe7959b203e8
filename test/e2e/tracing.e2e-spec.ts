import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { startApiProcess } from '../support/api-process';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n;

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  attributes?: { key: string; value: Record<string, unknown> }[];
  links?: { traceId: string; spanId: string }[];
}

/** An OTLP/HTTP JSON receiver: what the api and the worker export (OTEL_EXPORTER_OTLP_*). */
class OtlpReceiver {
  readonly spans: (OtlpSpan & { service: string })[] = [];
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw) as { resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[] };
        for (const rs of body.resourceSpans ?? []) {
          const service = rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          for (const ss of rs.scopeSpans) for (const span of ss.spans) this.spans.push({ ...span, service });
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((r) => (this.server!.closeAllConnections(), this.server!.close(() => r())));
  }
}

const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes?.find((a) => a.key === key)?.value;
  return v ? Object.values(v)[0] : undefined;
};

/**
 * Issue 18: one trace from POST /api/v1/execute through admission, the agent call (the agent gets
 * its traceparent) and the charge, exported over OTLP by an api process; an async execution's job
 * in the worker is a span linked to the request's trace. Attributes never carry payment headers.
 */
describe('tracing: OpenTelemetry across api, agent and worker (e2e)', () => {
  let harness: ApiHarness;
  let receiver: OtlpReceiver;
  let agentServer: TestAgentServer;
  const procs: RunningProcess[] = [];
  let base: string;
  let agentId: string;

  beforeAll(async () => {
    receiver = await new OtlpReceiver().start();
    agentServer = await new TestAgentServer().start();
    harness = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    agentId = (await registerAgent(harness, newWallet(), { endpoints: { execution: agentServer.url }, capabilities: [capabilityPayload()] })).body.data.id;
    const otel = {
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
    };
    const api = await startApiProcess({ ...harness.env, ...otel, LOG_LEVEL: 'info' });
    procs.push(api.process);
    base = api.url;
    procs.push(startProcess(builtApp('worker'), { ...harness.env, ...otel, LOG_LEVEL: 'warn' }));
  }, 60_000);
  afterAll(async () => {
    for (const p of procs) p.child.kill('SIGTERM');
    await Promise.all(procs.map((p) => p.exited));
    await harness.close();
    await agentServer.stop();
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
    const root = await waitFor(async () => receiver.spans.find((s) => s.name === 'agora.execute' && attr(s, 'agora.request_id') === requestId), 'the execute span');
    const trace = () => receiver.spans.filter((s) => s.traceId === root.traceId);
    await waitFor(async () => trace().some((s) => s.name === 'agora.execute.charge') || undefined, 'the charge span');
    const byName = (name: string) => trace().find((s) => s.name === name)!;
    expect(byName('agora.execute.admit').parentSpanId).toBe(root.spanId);
    expect(byName('agora.agent.call').parentSpanId).toBe(root.spanId);
    expect(byName('agora.execute.charge').parentSpanId).toBe(root.spanId);
    expect(attr(root, 'agora.agent_id')).toBe(agentId);
    expect(attr(root, 'agora.cost')).toBe('11000');
    expect(attr(root, 'agora.settlement_status')).toBe('settled');
    // Up the parents (the express handler spans) to the HTTP server span that started the trace; Postgres statements are in it too.
    let top: OtlpSpan = root;
    for (let parent = trace().find((s) => s.spanId === top.parentSpanId); parent; parent = trace().find((s) => s.spanId === top.parentSpanId)) top = parent;
    expect(top).toMatchObject({ name: expect.stringMatching(/^POST/), kind: 2 });
    expect(top.parentSpanId ?? '').toBe('');
    expect(trace().some((s) => attr(s, 'db.system') === 'postgresql' || attr(s, 'db.system.name') === 'postgresql')).toBe(true);
    // The agent got a traceparent of this trace, from the span of the HTTP call under agora.agent.call.
    const call = agentServer.calls.find((c) => c.json.requestId === requestId)!;
    const [, traceId, parentId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(String(call.headers.traceparent))!;
    expect(traceId).toBe(root.traceId);
    expect(trace().find((s) => s.spanId === parentId)?.parentSpanId).toBe(byName('agora.agent.call').spanId);
    // The api's log line for the request carries the trace id.
    await waitFor(async () => procs[0].output().includes(`"trace_id":"${root.traceId}"`) || undefined, 'a log line with the trace id');
    // Nothing exported carries the payment header.
    expect(JSON.stringify(receiver.spans)).not.toContain(res.payment.slice(0, 40));
  });

  it("an async execution's run in the worker is a span linked to the request's trace", async () => {
    const res = await execute('?async=true');
    expect(res.status).toBe(202);
    const requestId = res.body.data.jobId;
    const root = await waitFor(async () => receiver.spans.find((s) => s.name === 'agora.execute' && attr(s, 'agora.request_id') === requestId), 'the execute span');
    const job = await waitFor(
      async () => receiver.spans.find((s) => s.service === 'agora-worker' && s.name === 'agora.job execution.run' && (s.links ?? []).some((l) => l.traceId === root.traceId)),
      'the worker job span linked to the request',
      20_000,
    );
    expect(job.links![0].traceId).toBe(root.traceId);
    expect(root.service).toBe('agora-api');
  });
});
