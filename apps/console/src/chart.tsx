import { lazy, Suspense, useMemo } from 'react';
import { Scroll } from './components';

/** uPlot and its drawing, in a chunk of their own: the page's text comes first, the canvas after. */
const Plot = lazy(() => import('./plot'));

/** One line of a chart: its label, colour and value at each point (null: no value there). */
export interface Line<P> {
  label: string;
  color: string;
  value: (p: P) => number | null;
  /** How the data table writes a value (default: as is). */
  format?: (p: P) => string;
}

/**
 * A time series drawn by uPlot on a canvas, with its legend and, under "Data", the same points as
 * a table (what a screen reader reads, and what the tests check). `lines` must be a stable array
 * (a module constant): the plot is rebuilt when the points change, and resized with its box.
 */
export function Chart<P extends { at: string }>(props: {
  title: string;
  points: P[];
  lines: Line<P>[];
  bucket: 'hour' | 'day';
  testId: string;
}) {
  const { title, points, lines, bucket, testId } = props;
  const data = useMemo(
    () => ({
      xs: points.map((p) => Date.parse(p.at) / 1000),
      lines: lines.map((l) => ({ label: l.label, color: l.color, values: points.map((p) => l.value(p)) })),
    }),
    [points, lines],
  );
  const when = (at: string) =>
    bucket === 'day'
      ? new Date(at).toLocaleDateString([], { timeZone: 'UTC' })
      : new Date(at).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' });
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption>
        {title}
        <span className="legend">
          {lines.map((l) => (
            <span key={l.label} className="legend-item">
              <span className="swatch" style={{ background: l.color }} aria-hidden="true" />
              {l.label}
            </span>
          ))}
        </span>
      </figcaption>
      <Suspense fallback={<div className="plot" />}>
        <Plot data={data} label={`${title}: ${points.length} ${bucket}s, shown as a table under Data`} />
      </Suspense>
      <details>
        <summary>Data</summary>
        <Scroll label={`${title}: data`}>
          <table data-testid={`${testId}-table`}>
            <thead>
              <tr>
                <th scope="col">{bucket === 'day' ? 'Day' : 'Hour'}</th>
                {lines.map((l) => (
                  <th scope="col" key={l.label}>
                    {l.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {points.map((p, i) => (
                <tr key={i} data-at={p.at}>
                  <td>
                    <time dateTime={p.at}>{when(p.at)}</time>
                  </td>
                  {lines.map((l) => (
                    <td key={l.label}>{l.format ? l.format(p) : (l.value(p) ?? '–')}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      </details>
    </figure>
  );
}
