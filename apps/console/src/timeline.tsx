import type { components } from '@agora/sdk';
import { Scroll } from './components';

type Event = components['schemas']['TimelineEventDto'];

const LABELS: Record<string, string> = {
  received: 'Received',
  running: 'Agent called',
  completed: 'Completed',
  failed: 'Failed',
  timeout: 'Timed out',
  charged: 'Charged',
  settled: 'Settled',
  settlement_failed: 'Settlement failed',
  settlement_expired: 'Settlement expired',
  escrow_held: 'Earnings held in escrow',
  escrow_released: 'Escrow released',
  disputed: 'Disputed',
  dispute_resolved: 'Dispute resolved',
  refund_issued: 'Refund issued',
  refund_sent: 'Refund sent',
};

/** `+1.25 s` or `+840 ms` since the execution was received; days and hours for the escrow's long steps. */
export function offset(ms: number): string {
  if (ms < 1_000) return `+${ms} ms`;
  if (ms < 120_000)
    return `+${(ms / 1_000).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} s`;
  if (ms < 7_200_000) return `+${Math.round(ms / 60_000)} min`;
  if (ms < 172_800_000) return `+${Math.round(ms / 3_600_000)} h`;
  return `+${Math.round(ms / 86_400_000)} d`;
}

/** What happened to an execution and its money, oldest first, with the time since it was received. */
export function Timeline({ events }: { events: Event[] }) {
  return (
    <Scroll label="Timeline of the execution">
      <ol className="timeline" data-testid="timeline">
        {events.map((e, i) => (
          <li key={i} data-type={e.type} className={`step ${e.type}`}>
            <span className="step-name">{LABELS[e.type] ?? e.type}</span>
            <time dateTime={e.at} className="muted">
              {new Date(e.at).toLocaleString()} <span data-testid="offset">({offset(e.offsetMs)})</span>
            </time>
            <span className="step-detail">
              {e.amount && <span data-testid="amount">{e.amount} USDC</span>}
              {e.detail && <span> {e.detail.replace(/_/g, ' ')}</span>}
              {e.txHash && (
                <code title={e.txHash} data-testid="tx">
                  {' '}
                  {e.txHash.slice(0, 10)}…
                </code>
              )}
            </span>
          </li>
        ))}
      </ol>
    </Scroll>
  );
}
