import { Injectable } from '@nestjs/common';
import { Clock, formatMicros, NotFoundException } from '@app/common';
import { INITIAL_REPUTATION, reputationTier } from '@app/reputation';
import type { ReputationTier } from '@app/reputation';
import { AnalyticsRepository, LatencyRow } from '../../analytics.repository';
import { percentile } from '../../percentiles';

export const ANALYTICS_PERIODS = ['day', 'week', 'month', 'all'] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];

/** Rolling windows (resolutions §7): day = the last 24 h, week = 7 d, month = 30 d. */
const WINDOW_MS: Record<Exclude<AnalyticsPeriod, 'all'>, number> = {
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
};

export interface AgentAnalytics {
  agentId: string;
  period: AnalyticsPeriod;
  /** `selfPaid`: of the successful ones, those paid by the agent's own wallet (they moved no reputation). */
  executions: { total: number; successful: number; failed: number; successRate: number; selfPaid: number };
  /** micro-USDC strings with six decimals: gross (what clients paid), platformFees (platform fee + 5% cut), net (the agent's earnings). */
  earnings: { gross: string; platformFees: string; net: string };
  performance: {
    avgExecutionTime: number;
    p50ExecutionTime: number;
    p95ExecutionTime: number;
    p99ExecutionTime: number;
  };
  disputes: { total: number; won: number; lost: number; pending: number; rate: number };
  reputation: { current: number; change: number; tier: ReputationTier };
}

/**
 * `GET /analytics/agent/:agentId`. Successful executions are the charged ones (their money and
 * times); failed ones are the failed or timed-out runs that reached the agent (the same outcomes
 * that move its reputation). Percentiles are nearest-rank over completed executions; "all" reads
 * the rollups (latency exact below 1,024 ms, within 0.2% above), a window the rows in it.
 */
@Injectable()
export class GetAgentAnalytics {
  constructor(
    private readonly repo: AnalyticsRepository,
    private readonly clock: Clock,
  ) {}

  async execute(agentId: string, period: AnalyticsPeriod): Promise<AgentAnalytics> {
    if (period === 'all') {
      const { totals, latency, selfPaid } = await this.repo.allTime(agentId);
      if (!totals) throw new NotFoundException('AGENT_NOT_FOUND', 'Agent', agentId);
      return build(agentId, period, {
        successful: Number(totals.completed),
        selfPaid,
        failed: Number(totals.failed),
        gross: BigInt(totals.gross),
        platformFees: BigInt(totals.platformFees),
        net: BigInt(totals.net),
        timeSum: Number(totals.timeSumMs),
        latency,
        disputes: {
          filed: Number(totals.disputesFiled),
          won: Number(totals.disputesWon),
          lost: Number(totals.disputesLost),
          split: Number(totals.disputesSplit),
        },
        score: totals.score,
        change: totals.score - INITIAL_REPUTATION,
      });
    }
    const since = new Date(this.clock.nowMs() - WINDOW_MS[period]);
    const { totals, latency, events, selfPaid } = await this.repo.window(agentId, since);
    if (!totals) throw new NotFoundException('AGENT_NOT_FOUND', 'Agent', agentId);
    let gross = 0n;
    let platformFees = 0n;
    let net = 0n;
    let timeSum = 0;
    for (const row of latency) {
      gross += BigInt(row.gross);
      platformFees += BigInt(row.platformFees);
      net += BigInt(row.net);
      timeSum += row.ms * Number(row.n);
    }
    return build(agentId, period, {
      successful: latency.reduce((sum, row) => sum + Number(row.n), 0),
      selfPaid,
      failed: Number(events.failed),
      gross,
      platformFees,
      net,
      timeSum,
      latency,
      disputes: {
        filed: Number(events.disputesFiled),
        won: Number(events.disputesWon),
        lost: Number(events.disputesLost),
        split: Number(events.disputesSplit),
      },
      score: totals.score,
      change: Number(events.change),
    });
  }
}

interface Facts {
  successful: number;
  selfPaid: number;
  failed: number;
  gross: bigint;
  platformFees: bigint;
  net: bigint;
  timeSum: number;
  latency: LatencyRow[];
  /** Filed, and resolved by outcome (a split is neither won nor lost). */
  disputes: { filed: number; won: number; lost: number; split: number };
  score: number;
  change: number;
}

/** A share as a percentage with two decimals (0 when there is nothing to share). */
function rate(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part * 10_000) / whole) / 100;
}

function build(agentId: string, period: AnalyticsPeriod, f: Facts): AgentAnalytics {
  const total = f.successful + f.failed;
  const histogram = f.latency.map((row) => ({ value: row.ms, n: Number(row.n) }));
  return {
    agentId,
    period,
    executions: {
      total,
      successful: f.successful,
      failed: f.failed,
      successRate: rate(f.successful, total),
      selfPaid: f.selfPaid,
    },
    earnings: { gross: formatMicros(f.gross), platformFees: formatMicros(f.platformFees), net: formatMicros(f.net) },
    performance: {
      avgExecutionTime: f.successful === 0 ? 0 : Math.round(f.timeSum / f.successful),
      p50ExecutionTime: percentile(histogram, 50),
      p95ExecutionTime: percentile(histogram, 95),
      p99ExecutionTime: percentile(histogram, 99),
    },
    disputes: {
      total: f.disputes.filed,
      won: f.disputes.won,
      lost: f.disputes.lost,
      pending: Math.max(0, f.disputes.filed - f.disputes.won - f.disputes.lost - f.disputes.split),
      rate: rate(f.disputes.filed, f.successful),
    },
    reputation: { current: f.score, change: f.change, tier: reputationTier(f.score) },
  };
}
