import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const HEIGHT = 180;

/** What a Plot draws: times (seconds) and, per line, its label, colour and values. */
export interface PlotData {
  xs: number[];
  lines: { label: string; color: string; values: (number | null)[] }[];
}

/** The canvas of a Chart (uPlot): rebuilt when its data changes, resized with its box. */
export default function Plot({ data, label }: { data: PlotData; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = box.current;
    if (!node) return;
    const plot = new uPlot(
      {
        width: Math.max(240, node.clientWidth),
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true } },
        series: [
          {},
          ...data.lines.map((l) => ({
            label: l.label,
            stroke: l.color,
            width: 2,
            points: { show: data.xs.length < 40 },
          })),
        ],
        axes: [{ stroke: '#4a5160' }, { stroke: '#4a5160', size: 60 }],
      },
      [data.xs, ...data.lines.map((l) => l.values)],
      node,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(240, node.clientWidth), height: HEIGHT }));
    resize.observe(node);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [data]);
  return <div ref={box} className="plot" role="img" aria-label={label} />;
}
