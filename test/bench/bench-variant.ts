/* The second api of npm run bench (test/bench/bench.ts) and what its rounds show against the first:
   BENCH_TRACING (OpenTelemetry on) or BENCH_COMPARE (other settings). */
import { Row, spawnRole as spawnRoleOf } from './bench-lib';
import { ROLES_FILE } from './bench-roles';

const spawnRole = (role: string, env: Record<string, string> = {}, preload: string[] = []) =>
  spawnRoleOf(ROLES_FILE, role, env, preload);

/** The traced api: OpenTelemetry started before its imports, the sampled spans exported to the sink (nothing dropped: a deep queue). */
export function spawnTracedApi(sinkUrl: string) {
  const otel = {
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl,
    // BENCH_TRACE_RATIO: the share of requests sampled (1: every one, the worst case).
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: process.env.BENCH_TRACE_RATIO ?? '1',
    OTEL_BSP_MAX_QUEUE_SIZE: '65536',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_LOGS_EXPORTER: 'none',
  };
  // BENCH_TRACING=control: the same second process without the SDK (an A/A check of the comparison itself).
  if (process.env.BENCH_TRACING === 'control') return spawnRole('api');
  return spawnRole('api', otel, [require.resolve('./bench-tracing.ts')]);
}

/** BENCH_COMPARE='NAME=value ...': the api with those settings. */
export function spawnComparedApi(compare: string) {
  return spawnRole('api', Object.fromEntries(compare.split(/\s+/).map((kv) => kv.split('=') as [string, string])));
}

/** The variant's cost against 'sync /execute' at each connection count: the median of the rounds' pairs. */
export function printPairedCost(rows: Row[], variant: string): void {
  const byName = (name: string, c: number) => rows.find((r) => r.scenario === name && r.connections === c);
  for (const c of new Set(rows.map((r) => r.connections))) {
    const [off, on] = [byName('sync /execute', c), byName(variant, c)];
    if (!off || !on) continue;
    // Each round's two runs are neighbours in time: the median of their ratios is the steadier figure.
    const paired = off.rounds!.map((rps, i) => 1 - on.rounds![i] / rps).sort((a, b) => a - b);
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    const mid = paired.length / 2;
    const median = paired.length % 2 ? paired[Math.floor(mid)] : (paired[mid - 1] + paired[mid]) / 2;
    process.stdout.write(
      `\n'${variant}' against 'sync /execute' at ${c} connection(s): ${pct(median)} of req/s, median of the rounds' pairs [${paired.map(pct).join(', ')}]; medians ${off.rps} -> ${on.rps} req/s, server CPU ${off.serverCpu} -> ${on.serverCpu} ms/req`,
    );
  }
}
