import type { PlotData } from '../plot';

/**
 * The chart's canvas in jsdom (which has neither a canvas nor ResizeObserver for uPlot): the values
 * it would draw, as an attribute the tests read. What a person reads is the chart's data table.
 */
export default function PlotStub({ data, label }: { data: PlotData; label: string }) {
  return <div role="img" aria-label={label} data-plot={JSON.stringify(data.lines.map((l) => l.values))} />;
}
