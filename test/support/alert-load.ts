import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from './api-harness';
import { startApiProcess } from './api-process';
import { TestAgentServer } from './agent-server';
import { capabilityPayload, registerAgent } from './factories';
import { JsonReceiver } from './json-receiver';
import { seedCharge } from './money';
import { onFreePort } from './ports';
import { builtApp, RunningProcess, startProcess, waitFor } from './processes';
import { parsePrometheus } from './prometheus';
import { alertRules, durationS, evaluate, ScrapeStore } from './promql';
import { newWallet, walletHeaders } from './wallets';
import { x402Header } from './x402';

const PRICE = 11_000n;
const METRICS_TOKEN = 'alert-load-metrics-token-0123456789';

/**
 * Normal load for the alert rules (issue 53): an api and a worker as processes, one agent whose
 * earnings are held 2 s (escrow holds released by their 5-second buckets), subscribed to its events
 * (fan-outs and webhook deliveries), paid sync and async executions and withdrawals from several
 * clients, and both processes' /metrics scraped into a store the rules are evaluated over.
 */
export class AlertLoad {
  harness!: ApiHarness;
  ds!: DataSource;
  api!: string;
  workerMetrics!: string;
  agentId!: string;
  readonly store = new ScrapeStore();
  readonly counts = { sync: 0, async: 0, withdrawals: 0, failed: 0 };
  /** The failures' error codes, counted. */
  readonly failures: Record<string, number> = {};
  private readonly procs: RunningProcess[] = [];
  private agentServer!: TestAgentServer;
  private receiver!: JsonReceiver;
  private owner = newWallet();
  private ts = Date.now();
  private readonly t0 = Date.now();

  async start(env: Record<string, string> = {}): Promise<this> {
    this.agentServer = await new TestAgentServer().start();
    this.receiver = await new JsonReceiver().start();
    this.harness = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      ESCROW_HOLD_STANDARD_S: '2',
      // One agent takes all the load: its own per-minute limit is not what this measures.
      RATE_LIMIT_AGENT_PER_MIN: '1000000',
      METRICS_TOKEN,
      ...env,
    });
    this.ds = this.harness.app.get(DataSource);
    const res = await registerAgent(this.harness, this.owner, {
      endpoints: { execution: this.agentServer.url },
      capabilities: [capabilityPayload()],
    });
    if (res.status !== 201) throw new Error(`registration: ${JSON.stringify(res.body)}`);
    this.agentId = res.body.data.id;
    const procEnv = { ...this.harness.env, LOG_LEVEL: 'warn' };
    const api = await startApiProcess(procEnv);
    this.api = api.url;
    this.procs.push(api.process);
    this.workerMetrics = await onFreePort(async (port) => {
      this.procs.push(startProcess(builtApp('worker'), { ...procEnv, METRICS_PORT: String(port) }));
      await waitFor(async () => (await fetch(`${this.api}/api/v1/health/worker`)).status === 200, 'a worker');
      return `http://127.0.0.1:${port}/metrics`;
    });
    const sub = await this.post(
      '/api/v1/webhooks',
      { agentId: this.agentId, url: this.receiver.url, events: ['execution.completed', 'escrow.released'] },
      await walletHeaders(this.owner, this.agentId, 'POST /api/v1/webhooks', this.stamp()),
    );
    if (sub.status !== 201) throw new Error(`subscription: ${JSON.stringify(sub.body)}`);
    await seedCharge(this.harness.app, { agentId: this.agentId, agentFee: 1_000_000_000n, reputation: 90 });
    await this.ds.query(`UPDATE agents SET reputation_score = 50 WHERE id = $1`, [this.agentId]); // Standard: held 2 s
    return this;
  }

  async stop(): Promise<void> {
    for (const p of this.procs) p.child.kill('SIGTERM');
    await Promise.all(this.procs.map((p) => p.exited));
    await this.harness?.close();
    await this.agentServer?.stop();
    await this.receiver?.stop();
  }

  /** A signature's timestamp: now, and above the last one (each is single-use). */
  private stamp(): number {
    this.ts = Math.max(this.ts + 1, Date.now());
    return this.ts;
  }

  /** The highest of each queue's waiting and delayed jobs over the scrapes (the backlog rule's input). */
  peakQueues(): Record<string, number> {
    const peak: Record<string, number> = {};
    for (const { samples } of this.store.scrapes)
      for (const s of samples.filter((x) => x.name === 'agora_queue_jobs' && /waiting|delayed/.test(x.labels.state))) {
        const key = `${s.labels.queue} ${s.labels.state}`;
        peak[key] = Math.max(peak[key] ?? 0, s.value);
      }
    return peak;
  }

  /** Seconds since the load started: the store's clock. */
  now(): number {
    return (Date.now() - this.t0) / 1000;
  }

  /** Scrapes both processes into the store. */
  async scrape(): Promise<void> {
    const read = async (url: string) =>
      parsePrometheus(await (await fetch(url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text());
    const [a, w] = await Promise.all([read(`${this.api}/metrics`), read(this.workerMetrics)]);
    this.store.add(this.now(), [...a, ...w]);
  }

  /**
   * `clients` clients send calls until `ms` passed, at most `perSecond` a second in all, scraping every
   * `scrapeMs`: 7 in 10 sync, 2 async, 1 in 20 a withdrawal.
   */
  async run(ms: number, clients: number, perSecond = Infinity, scrapeMs = 5_000): Promise<void> {
    const start = Date.now();
    const until = start + ms;
    let next = 0;
    const scraper = setInterval(() => void this.scrape().catch(() => undefined), scrapeMs);
    try {
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (Date.now() < until) {
            const n = next++;
            const at = start + (n * 1000) / perSecond; // its slot in the paced schedule
            if (at > Date.now()) await new Promise((r) => setTimeout(r, at - Date.now()));
            await this.call(n);
          }
        }),
      );
    } finally {
      clearInterval(scraper);
    }
  }

  private async call(i: number): Promise<void> {
    const kind = i % 20 === 19 ? 'withdrawals' : i % 10 >= 7 ? 'async' : 'sync';
    const res =
      kind === 'withdrawals'
        ? await this.post(
            '/api/v1/payments/withdraw',
            { agentId: this.agentId, amount: '1.000000', destinationWallet: newWallet().address },
            await walletHeaders(this.owner, this.agentId, 'POST /api/v1/payments/withdraw', this.stamp()),
          )
        : await this.execute(kind === 'async', i);
    if (res.status >= 300) {
      this.counts.failed++;
      const code = `${res.status} ${res.body?.error?.code ?? ''}`;
      this.failures[code] = (this.failures[code] ?? 0) + 1;
    } else this.counts[kind]++;
  }

  private async execute(async: boolean, i: number) {
    const h = await x402Header(newWallet(), { amount: PRICE, payTo: this.harness.config.platformWallet });
    return this.post(
      `/api/v1/execute${async ? '?async=true' : ''}`,
      { targetAgentId: this.agentId, capabilityId: 'translate', input: { text: `load ${i}` } },
      { [h.name]: h.value },
    );
  }

  private async post(path: string, body: unknown, headers: Record<string, string>) {
    const res = await fetch(`${this.api}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  }
}

/** Each rule evaluated at every scrape: when its expression answered anything, and whether it stayed so for its `for`. */
export function alertVerdicts(store: ScrapeStore): { alert: string; active: number[]; firing: boolean }[] {
  return alertRules().map((rule) => {
    const active: number[] = [];
    let since: number | null = null;
    let firing = false;
    for (const { at } of store.scrapes) {
      const v = evaluate(rule.expr, store, at);
      const on = typeof v === 'number' ? !Number.isNaN(v) : v.length > 0;
      if (!on) {
        since = null;
        continue;
      }
      active.push(at);
      since ??= at;
      if (at - since >= (rule.for ? durationS(rule.for) : 0)) firing = true;
    }
    return { alert: rule.alert, active, firing };
  });
}

/** The worker's agora_sweeper_recovered_total by job at the last scrape. */
export function recoveredByJob(store: ScrapeStore): Record<string, number> {
  const last = store.scrapes[store.scrapes.length - 1]?.samples ?? [];
  return Object.fromEntries(
    last.filter((s) => s.name === 'agora_sweeper_recovered_total').map((s) => [s.labels.job, s.value]),
  );
}
