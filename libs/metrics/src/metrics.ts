import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The worker's payload storage measure, per agent or per payer: the holders of the most, the total, how many hold any. */
export interface StorageMeasure {
  top: { key: string; bytes: number }[];
  totalBytes: number;
  holders: number;
}

/**
 * Every Prometheus metric a process exposes, on its own registry (one per application, so tests
 * that start several in one process do not collide). Domains record through these objects; the
 * api serves them at GET /metrics and the worker on its metrics port.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'agora_http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });

  readonly executions = new Counter({
    name: 'agora_executions_total',
    help: 'Executions ended, by outcome (completed, failed, timeout) and pricing model',
    labelNames: ['outcome', 'pricing'] as const,
    registers: [this.registry],
  });

  readonly agentCallDuration = new Histogram({
    name: 'agora_agent_call_duration_seconds',
    help: 'Calls to agents, by outcome (ok, failed, timeout)',
    labelNames: ['outcome'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });

  readonly settlementDuration = new Histogram({
    name: 'agora_settlement_duration_seconds',
    help: 'Payment settlements, by mode (local, evm, facilitator) and outcome (settled, failed)',
    labelNames: ['mode', 'outcome'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });

  readonly jobs = new Histogram({
    name: 'agora_job_duration_seconds',
    help: 'Worker jobs processed, by queue, job name and outcome (completed, failed, delayed: put in line for its agent or host)',
    labelNames: ['queue', 'job', 'outcome'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });

  readonly jobWait = new Histogram({
    name: 'agora_job_wait_seconds',
    help: 'Time a job waited between being due and being taken, by queue',
    labelNames: ['queue'] as const,
    buckets: [...SECONDS, 60, 300],
    registers: [this.registry],
  });

  readonly jobsCapped = new Counter({
    name: 'agora_jobs_capped_total',
    help: 'Jobs put in line (delayed, not failed) because their agent or destination host had its cap of jobs going, by queue and scope (agent, host)',
    labelNames: ['queue', 'scope'] as const,
    registers: [this.registry],
  });

  readonly queueDepth = new Gauge({
    name: 'agora_queue_jobs',
    help: 'Jobs in each queue by state (waiting, delayed, active, failed), read at scrape time',
    labelNames: ['queue', 'state'] as const,
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'agora_webhook_deliveries_total',
    help: 'Webhook and callback delivery attempts, by outcome (succeeded, retrying, failed, gone)',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly payouts = new Counter({
    name: 'agora_payouts_total',
    help: 'Withdrawals and refunds reaching a state (requested, completed, failed)',
    labelNames: ['kind', 'state'] as const,
    registers: [this.registry],
  });

  readonly sweeperRecovered = new Counter({
    name: 'agora_sweeper_recovered_total',
    help: 'Due work the sweeper found in Postgres and enqueued, by job (above zero: a job was lost and recovered, or its wake-up was late)',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });

  readonly leasesLost = new Counter({
    name: 'agora_leases_lost_total',
    help: 'Leases a live process held and could not renew (taken over, or the row moved on without it)',
    registers: [this.registry],
  });

  private readonly invariantsOk = new Gauge({
    name: 'agora_invariants_ok',
    help: '1 when the last scheduled invariant check passed, 0 when it found a violation (payouts paused); absent before the first check',
    registers: [],
  });

  private readonly invariantsCheckedAt = new Gauge({
    name: 'agora_invariants_checked_timestamp_seconds',
    help: 'When the last scheduled invariant check ran (Unix seconds)',
    registers: [],
  });

  private readonly agentPayloadBytes = new Gauge({
    name: 'agora_agent_execution_payload_bytes',
    help: "Bytes the stored inputs and outputs of an agent's executions take (as stored, after compression), for the 20 agents holding the most; measured by the worker",
    labelNames: ['agent_id'] as const,
    registers: [],
  });

  private readonly payloadBytes = new Gauge({
    name: 'agora_execution_payload_bytes',
    help: 'Bytes the stored inputs and outputs of all executions take (as stored); measured by the worker',
    registers: [],
  });

  private readonly payloadAgents = new Gauge({
    name: 'agora_execution_payload_agents',
    help: 'Agents whose executions hold a stored input or output; measured by the worker',
    registers: [],
  });

  private readonly payerPayloadBytes = new Gauge({
    name: 'agora_payer_execution_payload_bytes',
    help: "Bytes the stored inputs and outputs of a payer's executions take (as stored), for the 20 payers holding the most; measured by the worker",
    labelNames: ['payer'] as const,
    registers: [],
  });

  private readonly payloadPayers = new Gauge({
    name: 'agora_execution_payload_payers',
    help: 'Payers whose executions hold a stored input or output; measured by the worker',
    registers: [],
  });

  constructor(opts: { process: string; defaultMetrics?: boolean }) {
    this.registry.setDefaultLabels({ process: opts.process });
    if (opts.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'agora_' });
  }

  /** The result of a scheduled invariant check (the two gauges appear with the first one: before it, 0 would read as a violation). */
  invariantCheck(ok: boolean, atMs: number): void {
    if (!this.registry.getSingleMetric('agora_invariants_ok')) {
      this.registry.registerMetric(this.invariantsOk);
      this.registry.registerMetric(this.invariantsCheckedAt);
    }
    this.invariantsOk.set(ok ? 1 : 0);
    this.invariantsCheckedAt.set(atMs / 1000);
  }

  /**
   * The worker's storage measure, per agent and per payer (the gauges appear with the first one).
   * Only the agents and payers holding the most are named, so the series stay bounded whatever their
   * number; one that left the top loses its series.
   */
  payloadStorage(m: { agents: StorageMeasure; payers: StorageMeasure }): void {
    if (!this.registry.getSingleMetric('agora_execution_payload_bytes')) {
      const gauges = [this.agentPayloadBytes, this.payloadBytes, this.payloadAgents, this.payerPayloadBytes];
      for (const g of [...gauges, this.payloadPayers]) this.registry.registerMetric(g);
    }
    this.agentPayloadBytes.reset();
    for (const a of m.agents.top) this.agentPayloadBytes.set({ agent_id: a.key }, a.bytes);
    this.payerPayloadBytes.reset();
    for (const p of m.payers.top) this.payerPayloadBytes.set({ payer: p.key }, p.bytes);
    this.payloadBytes.set(m.agents.totalBytes);
    this.payloadAgents.set(m.agents.holders);
    this.payloadPayers.set(m.payers.holders);
  }

  /** Starts a timer; the function it answers records the seconds since, with labels. */
  static timer(): () => number {
    const started = process.hrtime.bigint();
    return () => Number(process.hrtime.bigint() - started) / 1e9;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
