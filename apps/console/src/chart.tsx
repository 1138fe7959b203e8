import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { Scroll } from './components';

/** One line of a chart: its label, colour and value at each point (null: no value there). */
export interface Line<P> {
  label: string;
  color: string;
  value: (p: P) => number | null;
  /** How the data table writes a value (default: as is). */
  format?: (p: P) => string;
}

const HEIGHT = 180;

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
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = box.current;
    if (!node) return;
    const data: uPlot.AlignedData = [
      points.map((p) => Date.parse(p.at) / 1000),
      ...lines.map((l) => points.map((p) => l.value(p))),
    ];
    const plot = new uPlot(
      {
        width: Math.max(240, node.clientWidth),
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true } },
        series: [
          {},
          ...lines.map((l) => ({ label: l.label, stroke: l.color, width: 2, points: { show: points.length < 40 } })),
        ],
        axes: [{ stroke: '#4a5160' }, { stroke: '#4a5160', size: 60 }],
      },
      data,
      node,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(240, node.clientWidth), height: HEIGHT }));
    resize.observe(node);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [points, lines]);

  const when = (at: string) =>
    bucket === 'day'
      ? new Date(at).toLocaleDateString()
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
      <div
        ref={box}
        className="plot"
        role="img"
        aria-label={`${title}: ${points.length} ${bucket}s, shown as a table under Data`}
      />
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
              {points.map((p) => (
                <tr key={p.at} data-at={p.at}>
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
