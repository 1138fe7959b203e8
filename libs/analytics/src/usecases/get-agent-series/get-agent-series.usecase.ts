import { Injectable } from '@nestjs/common';
import { Clock, formatMicros, NotFoundException } from '@app/common';
import { addHistograms, latencyPercentiles } from '../../series/latency-histogram';
import { AgentHourRow, SeriesRepository } from '../../series/series.repository';
import { AGENT_MAX_DAYS, fillBuckets, SERIES_MAX_POINTS, SeriesBucket, seriesRange } from '../../series/series-range';
import { completeTo } from '../../series/series-view';

export interface AgentSeriesPoint {
  at: string;
  executions: number;
  succeeded: number;
  /** Percentage with two decimals; null when nothing ended in the bucket. */
  successRate: number | null;
  /** ms, the upper bound of the histogram bucket holding each percentile; null without a success. */
  latencyMs: { p50: number; p95: number; p99: number } | null;
  /** micro-USDC strings: charged for the agent's executions in the bucket, and the agent's share. */
  volume: string;
  earnings: string;
}

export interface AgentSeries {
  agentId: string;
  bucket: SeriesBucket;
  from: string;
  to: string;
  completeTo: string | null;
  points: AgentSeriesPoint[];
}

/**
 * `GET /analytics/agent/:agentId/series`: the agent's hours (at most 744) or days (summed from its
 * hours: at most 93 days, 2,232 rows) from the worker's roll-ups. Latency percentiles are over
 * successful runs.
 */
@Injectable()
export class GetAgentSeries {
  constructor(
    private readonly repo: SeriesRepository,
    private readonly clock: Clock,
  ) {}

  async execute(agentId: string, q: { bucket: SeriesBucket; from?: Date; to?: Date }): Promise<AgentSeries> {
    const max = q.bucket === 'day' ? AGENT_MAX_DAYS : SERIES_MAX_POINTS.hour;
    const range = seriesRange(q.bucket, this.clock.now(), q.from, q.to, max);
    const { exists, rows, completeTo: complete } = await this.repo.agentHours(agentId, range.from, range.to);
    if (!exists) throw new NotFoundException('AGENT_NOT_FOUND', 'Agent', agentId);
    return {
      agentId,
      bucket: q.bucket,
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      completeTo: completeTo(complete),
      points: fillBuckets(range, q.bucket === 'hour' ? rows : byDay(rows), (at, r) => {
        const executions = r?.executions ?? 0;
        return {
          at: at.toISOString(),
          executions,
          succeeded: r?.succeeded ?? 0,
          successRate: executions ? Math.round((r!.succeeded / executions) * 10_000) / 100 : null,
          latencyMs: r ? latencyPercentiles(r.latency) : null,
          volume: formatMicros(BigInt(r?.volume ?? 0)),
          earnings: formatMicros(BigInt(r?.earnings ?? 0)),
        };
      }),
    };
  }
}

/** Hours summed into their UTC days. */
function byDay(rows: AgentHourRow[]): AgentHourRow[] {
  const days = new Map<number, AgentHourRow>();
  for (const r of rows) {
    const day = Math.floor(r.at.getTime() / 86_400_000) * 86_400_000;
    const d = days.get(day);
    if (!d) days.set(day, { ...r, at: new Date(day), latency: [...r.latency] });
    else {
      d.executions += r.executions;
      d.succeeded += r.succeeded;
      addHistograms(d.latency, r.latency);
      d.volume = (BigInt(d.volume) + BigInt(r.volume)).toString();
      d.earnings = (BigInt(d.earnings) + BigInt(r.earnings)).toString();
    }
  }
  return [...days.values()];
}
