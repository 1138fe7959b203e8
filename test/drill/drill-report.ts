/* npm run drill: the summary table, one row per fault (its repetitions summed). */
import type { Attempt } from './drill-load';

/** What one fault's repetition measured. */
export interface FaultRun {
  fault: string;
  /** Money lost and created that this repetition's check found and the one before had not. */
  lost: bigint;
  created: bigint;
  doublePayments: number;
  paidRefused: number;
  paidOtherError: number;
  /** From the fault's end until a new paid call succeeded and the work in flight then had finished; null: not within the bound. */
  recoveryMs: number | null | undefined;
  /** Not recovered within the bound: what was still in flight then, and when everything had finished (if it had by the check). */
  slow?: { left: string; doneByMs: number | null };
  /** Rows still in flight when the check ran (the quiescence bound passed). */
  inFlight: number;
  ledgerCheck: boolean;
  answers: Attempt[];
}

/** Answers by status and error code, most frequent first: `200 x41, 0 ECONNREFUSED x3, 503 SERVICE_UNAVAILABLE x2`. */
export function answerCounts(attempts: Attempt[]): string {
  const counts = new Map<string, number>();
  for (const a of attempts) {
    const label = a.status === 0 ? `no answer (${a.code})` : `${a.status}${a.code ? ` ${a.code}` : ''}`;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([label, n]) => `${label} x${n}`)
    .join(', ');
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** `> 120 s (then in flight: 5 withdrawals; all done by 127 s)`. */
function slow(r: FaultRun, boundS: number): string {
  const notes = [
    ...(r.slow?.left ? [`then in flight: ${r.slow.left}`] : []),
    ...(r.slow?.doneByMs ? [`all done by ${seconds(r.slow.doneByMs)}`] : []),
  ];
  return `> ${boundS} s${notes.length ? ` (${notes.join('; ')})` : ''}`;
}

export function summaryTable(runs: FaultRun[], recoveryBoundS: number): string {
  const faults = [...new Set(runs.map((r) => r.fault))];
  const lines = [
    '| fault | repetitions | money lost / created (micro-USDC) | double payments | paid, then answered 402/503 (keyless) | paid, then another error or no answer | recovery time | left in flight | ledger:check | answers clients saw |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const fault of faults) {
    const rs = runs.filter((r) => r.fault === fault);
    const sum = <K extends keyof FaultRun>(k: K) => rs.reduce((s, r) => s + Number(r[k]), 0);
    const lost = rs.reduce((s, r) => s + r.lost, 0n);
    const created = rs.reduce((s, r) => s + r.created, 0n);
    const recovery = rs.map((r) =>
      r.recoveryMs === undefined ? '-' : r.recoveryMs === null ? slow(r, recoveryBoundS) : seconds(r.recoveryMs),
    );
    lines.push(
      `| ${fault} | ${rs.length} | ${lost} / ${created} | ${sum('doublePayments')} | ${sum('paidRefused')} | ${sum('paidOtherError')} | ${recovery.join(', ')} | ${sum('inFlight')} | ${rs.every((r) => r.ledgerCheck) ? 'passed' : 'FAILED'} | ${answerCounts(rs.flatMap((r) => r.answers)) || '-'} |`,
    );
  }
  return lines.join('\n');
}

/** True when any repetition found money lost or created, a double payment, a refused paid request or a failed ledger:check. */
export function failed(runs: FaultRun[]): boolean {
  return runs.some((r) => r.lost > 0n || r.created > 0n || r.doublePayments > 0 || r.paidRefused > 0 || !r.ledgerCheck);
}
