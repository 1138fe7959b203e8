/* Small helpers of npm run bench:schema (test/bench/schema-bench.ts): timing, percentiles, the markdown table. */
export const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
export const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
export const fmt = (n: number) => n.toFixed(1).padStart(7);
export const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

export function table(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  process.stdout.write(
    `${line(head)}\n|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|\n${rows.map(line).join('\n')}\n\n`,
  );
}
