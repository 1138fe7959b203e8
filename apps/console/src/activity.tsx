import type { components } from '@agora/sdk';
import { useApi } from './api';
import { Chart, Line } from './chart';
import { Panel } from './components';
import { RangePicker, useRange } from './ranges';
import { apiMicros, plotUsdc } from './money';

/** A point of the platform's series, typed from the API (docs/openapi.json). */
type PlatformPoint = components['schemas']['PlatformSeriesPointDto'];

export const BLUE = '#0b57d0';
export const GREEN = '#137333';
export const ORANGE = '#b3541e';

const EXECUTIONS: Line<PlatformPoint>[] = [
  { label: 'Executions', color: BLUE, value: (p) => p.executions },
  { label: 'Succeeded', color: GREEN, value: (p) => p.succeeded },
];
const VOLUME: Line<PlatformPoint>[] = [
  { label: 'Volume (USDC)', color: BLUE, value: (p) => plotUsdc(apiMicros(p.volume)), format: (p) => p.volume },
];
const PARTIES: Line<PlatformPoint>[] = [
  { label: 'Buyers', color: BLUE, value: (p) => p.buyers },
  { label: 'Sellers', color: ORANGE, value: (p) => p.sellers },
];

/** The platform's series over the chosen range: the explorer asks it and shows it in `Activity`. */
export function usePlatformSeries(range: ReturnType<typeof useRange>) {
  return useApi('/api/v1/analytics/platform/series', { bucket: range.bucket, from: range.from }, { refetchMs: 10_000 });
}

/** The explorer's charts: the platform's executions, volume, buyers and sellers over the chosen range. */
export function Activity(props: { range: ReturnType<typeof useRange>; series: ReturnType<typeof usePlatformSeries> }) {
  const { range, series } = props;
  const points = series.data?.points ?? [];
  return (
    <Panel title="Activity" state={series}>
      <RangePicker range={range} />
      {series.data && (
        <>
          <div className="charts">
            <Chart
              title="Executions"
              points={points}
              lines={EXECUTIONS}
              bucket={range.bucket}
              testId="chart-executions"
            />
            <Chart title="Volume" points={points} lines={VOLUME} bucket={range.bucket} testId="chart-volume" />
            <Chart
              title="Buyers and sellers"
              points={points}
              lines={PARTIES}
              bucket={range.bucket}
              testId="chart-parties"
            />
          </div>
          <CountedTo completeTo={series.data.completeTo} />
        </>
      )}
    </Panel>
  );
}

/** How fresh a series is: the worker counts what ended every few seconds. */
export function CountedTo({ completeTo }: { completeTo: string | null }) {
  return (
    <p className="muted" data-testid="counted-to">
      {completeTo ? `Counted up to ${new Date(completeTo).toLocaleTimeString()}.` : 'Not counted yet.'}
    </p>
  );
}
