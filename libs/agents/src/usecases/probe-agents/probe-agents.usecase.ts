import { Injectable, Logger } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { TransactionRunner } from '@app/database';
import { OutboundError, OutboundHttpClient } from '@app/outbound';
import { OutboxService } from '@app/outbox';
import { AgentHealthRepository, ClaimedProbe, ProbeResult } from '../../health/agent-health.repository';
import { ProbeLimiter } from '../../health/probe-limiter';

/** Agents claimed per batch at most (each batch is probed, then recorded in one transaction). */
const MAX_BATCH = 500;

export interface ProbeRound {
  probed: number;
  failed: number;
  deactivated: number;
}

/**
 * One probe round of the worker: claims the agents whose probe is due in batches (several workers
 * share them, none probes an agent twice), probes each active one through the SSRF guard — a GET of
 * `endpoints.health`, else a HEAD of its execution endpoint; any 2xx is up — with at most
 * HEALTH_PROBE_CONCURRENCY in flight and HEALTH_PROBE_PER_HOST per host, and records each batch:
 * history, hourly counts, streak and status, an `agent.health_changed` event when the status flips
 * up<->down, and the agents failing every probe for HEALTH_DEACTIVATE_AFTER_S set inactive with a reason.
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
    const round: ProbeRound = { probed: 0, failed: 0, deactivated: 0 };
    const c = this.config;
    if (c.healthProbeIntervalS === 0) return round;
    const limiter = new ProbeLimiter(c.healthProbeConcurrency, c.healthProbePerHost);
    const batch = Math.min(MAX_BATCH, Math.max(100, c.healthProbeConcurrency * 2));
    for (;;) {
      const claimed = await this.health.claimDue(this.clock.now(), batch, c.healthProbeIntervalS);
      if (claimed.length === 0) return round;
      const active = claimed.filter((a) => a.status === 'active');
      const results = await Promise.all(active.map((a) => this.probe(limiter, a)));
      await this.recordBatch(results, round);
    }
  }

  private async probe(limiter: ProbeLimiter, agent: ClaimedProbe): Promise<ProbeResult> {
    const url = agent.endpoints.health ?? agent.endpoints.execution;
    const method = agent.endpoints.health ? 'GET' : 'HEAD';
    let host: string;
    try {
      host = new URL(url).host;
    } catch {
      return { agentId: agent.agentId, ok: false, latencyMs: null, statusCode: null, error: 'invalid URL' };
    }
    return limiter.run(host, async () => {
      const started = performance.now();
      try {
        const status = await this.http.probe(url, method, this.config.healthProbeTimeoutMs);
        const latencyMs = Math.round(performance.now() - started);
        const ok = status >= 200 && status < 300;
        return { agentId: agent.agentId, ok, latencyMs, statusCode: status, error: ok ? null : `HTTP ${status}` };
      } catch (err) {
        const e = err instanceof OutboundError ? `${err.kind}: ${err.message}` : (err as Error).message;
        return { agentId: agent.agentId, ok: false, latencyMs: null, statusCode: null, error: e.slice(0, 200) };
      }
    });
  }

  private async recordBatch(results: ProbeResult[], round: ProbeRound): Promise<void> {
    if (results.length === 0) return;
    const now = this.clock.now();
    const c = this.config;
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
      for (const d of await this.health.deactivateFailing(m, failing, cutoff)) {
        round.deactivated++;
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
    if (round.deactivated) this.logger.log({ deactivated: round.deactivated }, 'agents set inactive by health');
  }
}
