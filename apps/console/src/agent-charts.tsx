import { useMemo } from 'react';
import type { components } from '@agora/sdk';
import { useApi } from './api';
import { BLUE, CountedTo, GREEN, ORANGE } from './activity';
import { Chart, Line } from './chart';
import { Panel } from './components';
import { RangePicker, useRange } from './ranges';
import { apiMicros, plotUsdc } from './money';

/** A point of an agent's series, typed from the API (docs/openapi.json). */
type AgentPoint = components['schemas']['AgentSeriesPointDto'];

const EXECUTIONS: Line<AgentPoint>[] = [
  { label: 'Executions', color: BLUE, value: (p) => p.executions },
  { label: 'Succeeded', color: GREEN, value: (p) => p.succeeded },
];
const SUCCESS: Line<AgentPoint>[] = [{ label: 'Success rate (%)', color: GREEN, value: (p) => p.successRate }];
const LATENCY: Line<AgentPoint>[] = [
  { label: 'p50 (ms)', color: GREEN, value: (p) => p.latencyMs?.p50 ?? null },
  { label: 'p95 (ms)', color: BLUE, value: (p) => p.latencyMs?.p95 ?? null },
  { label: 'p99 (ms)', color: ORANGE, value: (p) => p.latencyMs?.p99 ?? null },
];
const MONEY: Line<AgentPoint>[] = [
  { label: 'Earnings (USDC)', color: GREEN, value: (p) => plotUsdc(apiMicros(p.earnings)), format: (p) => p.earnings },
  { label: 'Volume (USDC)', color: BLUE, value: (p) => plotUsdc(apiMicros(p.volume)), format: (p) => p.volume },
];

/** The agent's series over the chosen range. */
export function useAgentSeries(agentId: string, range: ReturnType<typeof useRange>) {
  return useApi(
    '/api/v1/analytics/agent/{agentId}/series',
    { agentId, bucket: range.bucket, from: range.from },
    { refetchMs: 15_000 },
  );
}

/** The agent page's charts: executions, success rate, latency percentiles, earnings, over the chosen range. */
export function AgentCharts(props: { range: ReturnType<typeof useRange>; series: ReturnType<typeof useAgentSeries> }) {
  const { range, series } = props;
  const points = series.data?.points ?? [];
  const b = range.bucket;
  return (
    <Panel title="Performance" state={series}>
      <RangePicker range={range} />
      {series.data && (
        <>
          <div className="charts">
            <Chart title="Executions" points={points} lines={EXECUTIONS} bucket={b} testId="agent-chart-executions" />
            <Chart title="Success rate" points={points} lines={SUCCESS} bucket={b} testId="agent-chart-success" />
            <Chart title="Latency" points={points} lines={LATENCY} bucket={b} testId="agent-chart-latency" />
            <Chart title="Earnings" points={points} lines={MONEY} bucket={b} testId="agent-chart-earnings" />
          </div>
          <CountedTo completeTo={series.data.completeTo} />
        </>
      )}
    </Panel>
  );
}

interface ScorePoint {
  at: string;
  score: number;
}
const SCORE: Line<ScorePoint>[] = [{ label: 'Score', color: BLUE, value: (p) => p.score }];

/** The score after each recent reputation event, oldest first. */
export function ScoreChart({ events }: { events: { createdAt: string; score: number }[] }) {
  const points = useMemo(() => [...events].reverse().map((e) => ({ at: e.createdAt, score: e.score })), [events]);
  if (points.length === 0) return null;
  return (
    <Chart title="Score over its recent events" points={points} lines={SCORE} bucket="hour" testId="score-chart" />
  );
}

interface UptimePoint {
  at: string;
  uptime: number | null;
  latency: number | null;
}
const UPTIME: Line<UptimePoint>[] = [{ label: 'Uptime (%)', color: GREEN, value: (p) => p.uptime }];

/** Health probes by the hour over the last 7 days: the share answered. */
export function UptimeChart({
  hours,
}: {
  hours: { hour: string; probes: number; ups: number; avgLatencyMs: number | null }[];
}) {
  const points = useMemo(
    () =>
      hours.map((h) => ({
        at: h.hour,
        uptime: h.probes ? Math.round((h.ups / h.probes) * 10_000) / 100 : null,
        latency: h.avgLatencyMs,
      })),
    [hours],
  );
  if (hours.length === 0) return <p className="muted">No health probes yet.</p>;
  return <Chart title="Uptime by the hour" points={points} lines={UPTIME} bucket="hour" testId="uptime-chart" />;
}
