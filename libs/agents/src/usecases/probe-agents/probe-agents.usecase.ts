import { Injectable, Logger } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { TransactionRunner } from '@app/database';
import { OutboundError, OutboundHttpClient } from '@app/outbound';
import { OutboxService } from '@app/outbox';
import { AgentHealthRepository, ClaimedProbe, ProbeResult } from '../../health/agent-health.repository';
import { runProbePipeline } from '../../health/probe-pipeline';
import { probeTarget, probeUp } from '../../health/probe-verdict';
import { hostnameOf } from '../../agent-rules';

/** Results recorded per transaction at most, and the longest one waits for its batch. */
const RECORD_BATCH = 200;
const RECORD_DELAY_MS = 250;

export interface ProbeRound {
  probed: number;
  failed: number;
  deactivated: number;
  /** Claimed but given back: their host already had a full backlog. */
  deferred: number;
  /** Probed, but their batch failed to record (they are probed again next interval). */
  unrecorded: number;
}

/**
 * One probe round of the worker: claims the agents whose probe is due (several workers share them,
 * none probes an agent twice) and probes each active one through the SSRF guard — a GET of
 * `endpoints.health` (up: a 2xx), else a HEAD of its execution endpoint (up: any answer below 500
 * but 429, see probeUp) — pipelined (runProbePipeline): at most HEALTH_PROBE_CONCURRENCY in flight
 * and HEALTH_PROBE_PER_HOST per host (per worker process), each bounded by HEALTH_PROBE_TIMEOUT_MS.
 * Results are recorded in batches: hourly buckets, streak and status, an `agent.health_changed`
 * event when the status flips up<->down, and the agents failing every probe for
 * HEALTH_DEACTIVATE_AFTER_S set inactive with a reason (and an event).
 */
@Injectable()
export class ProbeAgents {
  private readonly logger = new Logger(ProbeAgents.name);

  constructor(
    private readonly health: AgentHealthRepository,
    private readonly http: OutboundHttpClient,
    private readonly outbox: OutboxService,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async execute(): Promise<ProbeRound> {
    const round: ProbeRound = { probed: 0, failed: 0, deactivated: 0, deferred: 0, unrecorded: 0 };
    const c = this.config;
    if (c.healthProbeIntervalS === 0) return round;
    const stats = await runProbePipeline<ClaimedProbe, ProbeResult>({
      concurrency: c.healthProbeConcurrency,
      perHost: c.healthProbePerHost,
      claim: async (limit) =>
        (await this.health.claimDue(this.clock.now(), limit, c.healthProbeIntervalS)).filter(
          (a) => a.status === 'active',
        ),
      hostOf: (a) => hostnameOf(probeTarget(a.endpoints).url),
      probe: (a) => this.probe(a),
      defer: (agents) =>
        this.health.defer(
          agents.map((a) => a.agentId),
          new Date(this.clock.nowMs() + c.healthProbeTimeoutMs),
        ),
      record: (results) => this.recordBatch(results, round),
      recordBatch: RECORD_BATCH,
      recordDelayMs: RECORD_DELAY_MS,
    });
    round.deferred = stats.deferred;
    round.unrecorded = stats.unrecorded;
    if (stats.unrecorded) this.logger.warn({ unrecorded: stats.unrecorded }, 'health probe results not recorded');
    return round;
  }

  private async probe(agent: ClaimedProbe): Promise<ProbeResult> {
    const target = probeTarget(agent.endpoints);
    const started = performance.now();
    try {
      const status = await this.http.probe(target.url, target.method, this.config.healthProbeTimeoutMs);
      const latencyMs = Math.round(performance.now() - started);
      const ok = probeUp(target, status);
      return { agentId: agent.agentId, ok, latencyMs, statusCode: status, error: ok ? null : `HTTP ${status}` };
    } catch (err) {
      const e = err instanceof OutboundError ? `${err.kind}: ${err.message}` : (err as Error).message;
      return { agentId: agent.agentId, ok: false, latencyMs: null, statusCode: null, error: e.slice(0, 200) };
    }
  }

  private async recordBatch(results: ProbeResult[], round: ProbeRound): Promise<void> {
    const now = this.clock.now();
    const c = this.config;
    let deactivated = 0;
    await this.tx.run(async (m) => {
      const flips = await this.health.record(m, results, now, c.healthDownAfterFailures);
      for (const f of flips) {
        if (f.status === f.previous || (f.previous === 'unknown' && f.status === 'up')) continue;
        await this.outbox.record(m, 'agent.health_changed', f.agentId, {
          agentId: f.agentId,
          status: f.status,
          previousStatus: f.previous,
          agentStatus: 'active',
          lastError: f.lastError,
          uptime24h: f.uptime24h,
          checkedAt: now.toISOString(),
        });
      }
      if (c.healthDeactivateAfterS === 0) return;
      const failing = results.filter((r) => !r.ok).map((r) => r.agentId);
      if (failing.length === 0) return;
      const cutoff = new Date(now.getTime() - c.healthDeactivateAfterS * 1000);
      for (const d of await this.health.deactivateFailing(m, failing, cutoff, now)) {
        deactivated++;
        await this.outbox.record(m, 'agent.health_changed', d.agentId, {
          agentId: d.agentId,
          status: 'down',
          agentStatus: 'inactive',
          reason: d.reason,
          failingSince: new Date(d.failingSince).toISOString(),
          lastError: d.lastError,
          checkedAt: now.toISOString(),
        });
      }
    });
    round.probed += results.length;
    round.failed += results.filter((r) => !r.ok).length;
    round.deactivated += deactivated;
    if (deactivated) this.logger.log({ deactivated }, 'agents set inactive by health');
  }
}
