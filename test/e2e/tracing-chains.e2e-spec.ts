import { DataSource } from 'typeorm';
import { startOrchestratorAgent, RunningOrchestrator } from '../../examples/orchestrator-agent';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent, orchestrateCapability } from '../support/factories';
import { startApiProcess } from '../support/api-process';
import { JsonReceiver } from '../support/json-receiver';
import { seedCharge } from '../support/money';
import { attr, OtlpReceiver } from '../support/otlp-receiver';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n;
const ORCHESTRATE = 21_000n;
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

  it("a withdrawal's payout job links to the request that asked for it, and its withdrawal.completed delivery to the job", async () => {
    await seedCharge(harness.app, { agentId, agentFee: 2_000_000n, reputation: 90 });
    const res = await fetch(`${base}/api/v1/payments/withdraw`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(await walletHeaders(owner, agentId, 'POST /api/v1/payments/withdraw')),
      },
      body: JSON.stringify({ agentId, amount: '1.00', destinationWallet: newWallet().address }),
    });
    expect(res.status).toBe(201);
    const withdrawalId = ((await res.json()) as { data: { withdrawalId: string } }).data.withdrawalId;
    const request = await waitFor(
      async () =>
        receiver.spans.find(
          (s) =>
            s.service === 'agora-api' &&
            s.kind === 2 &&
            JSON.stringify(s.attributes).includes('/api/v1/payments/withdraw'),
        ),
      'the withdraw request span',
    );
    const job = await waitFor(
      async () =>
        receiver.spans.find(
          (s) =>
            s.name === 'agora.job withdrawal.process' && (s.links ?? []).some((l) => l.traceId === request.traceId),
        ),
      'the payout job linked to the request',
      20_000,
    );
    const got = await waitFor(
      async () =>
        hooks.received.find(
          (r) => r.body?.type === 'withdrawal.completed' && r.body.data.withdrawalId === withdrawalId,
        ),
      'the withdrawal webhook',
      20_000,
    );
    expect(got.body.data.withdrawalId).toBe(withdrawalId);
    const deliver = await waitFor(
      async () =>
        receiver.spans.find(
          (s) =>
            s.name === 'agora.webhook.deliver' &&
            attr(s, 'agora.event_type') === 'withdrawal.completed' &&
            (s.links ?? []).some((l) => l.traceId === job.traceId),
        ),
      "the delivery span linked to the payout job's trace",
    );
    expect(TRACEPARENT.exec(String(got.headers.traceparent))![1]).toBe(deliver.traceId);
  });

  it("a chain's hops are in the chain's trace: the sub-call's span is a child of its caller's, though the agent sent no traceparent", async () => {
    const budget = 50_000n;
    const pay = await x402Header(newWallet(), { amount: ORCHESTRATE + budget, payTo: harness.config.platformWallet });
    const calls = [{ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'hop' } }];
    const res = await fetch(`${base}/api/v1/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [pay.name]: pay.value },
      body: JSON.stringify({
        targetAgentId: orchestratorId,
        capabilityId: 'orchestrate',
        input: { calls },
        chain: { budget: '0.05' },
      }),
    });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body.data.output.results[0]).toMatchObject({ status: 200, output: { translation: 'HOP' } });
    const chainId = body.data.chain.chainId;
    const ds = harness.app.get(DataSource);
    const [{ traceId }] = await ds.query(`SELECT trace_id AS "traceId" FROM chains WHERE id = $1`, [chainId]);
    const nodes: { executionId: string; spanId: string; depth: number }[] = await ds.query(
      `SELECT execution_id AS "executionId", span_id AS "spanId", depth FROM chain_nodes WHERE chain_id = $1 ORDER BY depth`,
      [chainId],
    );
    expect(nodes.map((n) => n.depth)).toEqual([0, 1]);
    const span = (n: { executionId: string }) =>
      receiver.spans.find((s) => s.name === 'agora.execute' && attr(s, 'agora.request_id') === n.executionId);
    const [root, hop] = await Promise.all(
      nodes.map((n) => waitFor(async () => span(n), `the execute span of depth ${n.depth}`)),
    );
    // The chain's trace is the root request's; each node's span id is its agora.execute span's.
    expect(root.traceId).toBe(traceId);
    expect(hop.traceId).toBe(traceId);
    expect([root.spanId, hop.spanId]).toEqual(nodes.map((n) => n.spanId));
    expect(hop.parentSpanId).toBe(root.spanId);
    expect(attr(hop, 'agora.chain_id')).toBe(chainId);
    // The hop's own HTTP request (the orchestrator propagates nothing) started another trace, which the hop links to.
    expect(hop.links).toHaveLength(1);
    expect(hop.links![0].traceId).not.toBe(traceId);
    // Each agent received one traceparent, of the chain's trace.
    const rootCall = orchestrator.state.calls.find((c) => c.json.chain?.chainId === chainId)!;
    const hopCall = agentServer.calls.find((c) => c.json.input?.text === 'hop')!;
    expect(TRACEPARENT.exec(String(rootCall.headers.traceparent))?.[1]).toBe(traceId);
    expect(TRACEPARENT.exec(String(hopCall.headers.traceparent))?.[1]).toBe(traceId);
    // No span carries a chain token (the root's, nor the hop's).
    for (const call of [rootCall, hopCall])
      expect(JSON.stringify(receiver.spans)).not.toContain(String(call.headers['x-chain-token']).split('.')[1]);
  });

  it("a chain whose root was not sampled stays unsampled: its hop records no span and each agent gets the chain's traceparent flagged 00", async () => {
    // A second api samples no new trace (ratio 0); a request that carries a sampled traceparent is sampled.
    const otel = otelEnv({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' });
    const api = await startApiProcess({
      ...harness.env,
      ...otel,
      OTEL_SERVICE_NAME: 'agora-api-unsampled',
      LOG_LEVEL: 'warn',
    });
    procs.push(api.process);
    const unsampledOrchestrator = await startOrchestratorAgent({ platformUrl: api.url });
    try {
      const id = (
        await registerAgent(harness, newWallet(), {
          endpoints: { execution: unsampledOrchestrator.url },
          capabilities: [orchestrateCapability()],
        })
      ).body.data.id;
      unsampledOrchestrator.serve(id);
      const pay = await x402Header(newWallet(), {
        amount: ORCHESTRATE + 50_000n,
        payTo: harness.config.platformWallet,
      });
      const calls = [{ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'unsampled hop' } }];
      const res = await fetch(`${api.url}/api/v1/execute`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [pay.name]: pay.value },
        body: JSON.stringify({
          targetAgentId: id,
          capabilityId: 'orchestrate',
          input: { calls },
          chain: { budget: '0.05' },
        }),
      });
      const body = (await res.json()) as any;
      expect(res.status).toBe(200);
      expect(body.data.output.results[0]).toMatchObject({ status: 200, output: { translation: 'UNSAMPLED HOP' } });
      const [{ traceId }] = await harness.app
        .get(DataSource)
        .query(`SELECT trace_id AS "traceId" FROM chains WHERE id = $1`, [body.data.chain.chainId]);
      const rootCall = unsampledOrchestrator.state.calls.find(
        (c) => c.json.chain?.chainId === body.data.chain.chainId,
      )!;
      const hopCall = agentServer.calls.find((c) => c.json.input?.text === 'unsampled hop')!;
      for (const call of [rootCall, hopCall])
        expect(TRACEPARENT.exec(String(call.headers.traceparent))?.slice(1, 2)).toEqual([traceId]);
      expect(String(rootCall.headers.traceparent).endsWith('-00')).toBe(true);
      expect(String(hopCall.headers.traceparent).endsWith('-00')).toBe(true);
      // A sampled request sent afterwards to the same process: once its span is exported, any span
      // of the chain ended before it would have been too (the batch exports in the order spans end).
      const marker = `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`;
      const h = await x402Header(newWallet(), { amount: PRICE, payTo: harness.config.platformWallet });
      const after = await fetch(`${api.url}/api/v1/execute`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: marker, [h.name]: h.value },
        body: JSON.stringify({ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'marker' } }),
      });
      expect(after.status).toBe(200);
      await waitFor(
        async () => receiver.spans.some((s) => s.traceId === 'ab'.repeat(16) && s.name === 'agora.execute'),
        'the marker span',
      );
      expect(receiver.spans.filter((s) => s.traceId === traceId)).toEqual([]);
    } finally {
      await unsampledOrchestrator.stop();
    }
  });
});
