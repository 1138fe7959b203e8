import { useMemo } from 'react';
import type { components } from '@agora/sdk';
import { useApi } from '../api';
import { Chart, Line } from '../chart';
import { Panel, Stat } from '../components';
import { apiMicros, formatMicros, plotUsdc } from '../money';

type Tx = components['schemas']['TransactionListItemResponse'];
type Withdrawal = components['schemas']['WithdrawalResponse'];
export interface BalancePoint {
  at: string;
  /** Micro-USDC held after this movement. */
  balance: bigint;
  what: string;
}

/** How many charges and withdrawals the chart reads (the most the API pages). */
const PAGE = 100;
const LINES: Line<BalancePoint>[] = [
  {
    label: 'Balance (USDC)',
    color: '#1f6feb',
    value: (p) => plotUsdc(p.balance),
    format: (p) => formatMicros(p.balance),
  },
  { label: 'Movement', color: 'transparent', value: () => null, format: (p) => p.what },
];

/**
 * The balance after each movement of the last `PAGE` charges and withdrawals, walked back from what
 * the agent holds now (available + in escrow): a charge adds its earnings, a withdrawal not failed
 * takes its amount (fee included). When either list is full, the walk stops at the later of the two
 * lists' oldest movements: before it, the shorter list's movements are not known.
 */
export function balancePoints(now: bigint, txs: Tx[], withdrawals: Withdrawal[]): BalancePoint[] {
  const oldest = (times: string[]) => (times.length ? Math.min(...times.map((t) => Date.parse(t))) : -Infinity);
  const from = Math.max(
    txs.length >= PAGE ? oldest(txs.map((t) => t.created_at)) : -Infinity,
    withdrawals.length >= PAGE ? oldest(withdrawals.map((w) => w.created_at)) : -Infinity,
  );
  const moves = [
    ...txs
      .filter((t) => t.status === 'completed')
      .map((t) => ({ at: t.created_at, delta: apiMicros(t.agent_earnings), what: `+${t.agent_earnings} ${t.id}` })),
    ...withdrawals
      .filter((w) => w.status !== 'failed')
      .map((w) => ({ at: w.created_at, delta: -apiMicros(w.amount), what: `−${w.amount} ${w.id}` })),
  ]
    .filter((m) => Date.parse(m.at) >= from)
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  let balance = now;
  const points: BalancePoint[] = [];
  for (let i = moves.length - 1; i >= 0; i--) {
    points.unshift({ at: moves[i].at, balance, what: moves[i].what });
    balance -= moves[i].delta;
  }
  return points;
}

/** Available, in escrow, reserved, withdrawn and disputed, and the balance over time. */
export function BalancePanel({ agentId }: { agentId: string }) {
  const bal = useApi('/api/v1/payments/balance/{agentId}', { agentId }, { refetchMs: 3_000 });
  const txs = useApi('/api/v1/payments/history/{agentId}', { agentId, limit: PAGE }, { refetchMs: 5_000 });
  const wds = useApi('/api/v1/payments/withdrawals/{agentId}', { agentId, limit: PAGE }, { refetchMs: 3_000 });
  const b = bal.data;
  // `reserved` is a part of `available` (what the rolling reserve keeps of it), not money on top.
  const held = b ? apiMicros(b.available) + apiMicros(b.pending) : 0n;
  const points = useMemo(
    () => balancePoints(held, txs.data ?? [], wds.data?.withdrawals ?? []),
    [held, txs.data, wds.data],
  );
  return (
    <Panel title="Balance" state={bal} id="balance">
      {b && (
        <>
          <dl className="stats">
            <Stat label="Available" value={b.available} testId="owner-available" />
            <Stat label="In escrow" value={b.pending} testId="owner-pending" />
            {apiMicros(b.reserved) > 0n && <Stat label="Reserved" value={b.reserved} testId="owner-reserved" />}
            <Stat label="Withdrawn" value={b.totalWithdrawn} testId="owner-withdrawn" />
            <Stat label="Disputed" value={b.totalDisputed} testId="owner-disputed" />
            <Stat label="Held now" value={formatMicros(held)} testId="owner-held" />
          </dl>
          {points.length > 0 && (
            <Chart title="Balance over time" points={points} lines={LINES} bucket="hour" testId="balance-chart" />
          )}
        </>
      )}
    </Panel>
  );
}
