import { FormEvent, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import type { components } from '@agora/sdk';
import { useApi } from '../api';
import { actionError, call, clientProof, useSession } from '../actions';
import { Chart, Line } from '../chart';
import { Alert, Panel, Table } from '../components';
import { apiMicros, formatMicros, plotUsdc } from '../money';

type Run = components['schemas']['ExecutionListItemDto'];
interface DaySpend {
  at: string;
  /** Micro-USDC. */
  spent: bigint;
  runs: number;
}
const LINES: Line<DaySpend>[] = [
  { label: 'Spent (USDC)', color: '#1f6feb', value: (p) => plotUsdc(p.spent), format: (p) => formatMicros(p.spent) },
  { label: 'Paid runs', color: '#8250df', value: (p) => p.runs },
];

/**
 * What a wallet spent per UTC day: the totals of its completed runs (a failed run is not charged).
 * `partial`: older runs exist beyond these, so the oldest day is incomplete and left out.
 */
export function spendByDay(runs: Run[], partial: boolean): DaySpend[] {
  const days = new Map<string, DaySpend>();
  for (const r of runs) {
    if (r.status !== 'completed') continue;
    const at = `${r.createdAt.slice(0, 10)}T00:00:00.000Z`;
    const d = days.get(at) ?? { at, spent: 0n, runs: 0 };
    d.spent += apiMicros(r.total);
    d.runs += 1;
    days.set(at, d);
  }
  const sorted = [...days.values()].sort((a, b) => a.at.localeCompare(b.at));
  return partial ? sorted.slice(1) : sorted;
}

/** The paying wallet's console: its executions with cost and receipt, spending over time, its disputes, filing one. */
export function BuyerPage() {
  const session = useSession();
  if (session.isPending) return <p role="status">Loading…</p>;
  if (!session.data)
    return (
      <>
        <h1>Your payments</h1>
        <p data-testid="buyer-signed-out">
          <Link to="/sign-in">Sign in with your paying wallet</Link> to see what it paid for.
        </p>
      </>
    );
  return <Buyer wallet={session.data.wallet} />;
}

function Buyer({ wallet }: { wallet: string }) {
  const runs = useApi('/api/v1/payers/{wallet}/executions', { wallet, limit: 100 });
  const disputes = useApi('/api/v1/payers/{wallet}/disputes', { wallet, limit: 50 });
  const days = useMemo(() => spendByDay(runs.data?.executions ?? [], !!runs.data?.next), [runs.data]);
  const [filing, setFiling] = useState<string | null>(null);
  return (
    <>
      <h1>Your payments</h1>
      <p className="muted">
        Signed in as <code>{wallet}</code>.
      </p>
      <Panel title="Spending" state={runs} empty={days.length === 0} emptyText="No paid run yet.">
        <Chart
          title="Spent per day (UTC), over your last 100 executions"
          points={days}
          lines={LINES}
          bucket="day"
          testId="spend-chart"
        />
      </Panel>
      <Panel title="Your executions" state={runs} id="buyer-executions">
        <Table
          testId="buyer-executions"
          label="Your executions"
          head={['When', 'Agent', 'Status', 'Cost', 'Receipt', 'Dispute']}
        >
          {runs.data?.executions.map((r) => (
            <tr key={r.requestId} data-request={r.requestId}>
              <td>{new Date(r.createdAt).toLocaleString()}</td>
              <td>
                <Link to={`/agents/${r.agentId}`}>{r.agentName ?? r.agentId.slice(0, 8)}</Link> · {r.capabilityId}
              </td>
              <td>{r.status}</td>
              <td>{r.status === 'completed' ? r.total : '0 (not charged)'}</td>
              <td>{r.hasReceipt ? <Link to={`/executions/${r.requestId}`}>receipt</Link> : '–'}</td>
              <td>
                {r.transactionId && (
                  <button type="button" onClick={() => setFiling(r.transactionId)}>
                    Dispute
                  </button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      </Panel>
      {filing && <FileDispute transactionId={filing} done={() => setFiling(null)} />}
      <Panel
        title="Your disputes"
        state={disputes}
        id="buyer-disputes"
        empty={disputes.data?.disputes.length === 0}
        emptyText="You have filed no dispute."
      >
        <Table testId="buyer-disputes" label="Your disputes" head={['Filed', 'Transaction', 'Reason', 'State']}>
          {disputes.data?.disputes.map((d) => (
            <tr key={d.id} data-dispute={d.id}>
              <td>{new Date(d.createdAt).toLocaleString()}</td>
              <td>
                <code>{d.transactionId}</code>
              </td>
              <td>{d.reason}</td>
              <td>{d.status}</td>
            </tr>
          ))}
        </Table>
      </Panel>
    </>
  );
}

/** Filing a dispute: the wallet signs `agora-auth:<transaction>:<unix_ms>`, its proof of being the payer. */
function FileDispute({ transactionId, done }: { transactionId: string; done: () => void }) {
  const client = useQueryClient();
  const [reason, setReason] = useState('');
  const [evidence, setEvidence] = useState('');
  const [error, setError] = useState<string>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!reason.trim()) return setError('Say what went wrong.');
    try {
      const proof = await clientProof(transactionId);
      const body = { transactionId, reason: reason.trim(), ...(evidence.trim() ? { evidence: evidence.trim() } : {}) };
      await call('POST', '/api/v1/disputes', body, proof);
      await client.invalidateQueries();
      done();
    } catch (err) {
      setError(actionError(err));
    }
  };
  return (
    <section className="panel" aria-labelledby="file-title">
      <h2 id="file-title">Dispute {transactionId}</h2>
      <form onSubmit={submit} className="search">
        <label htmlFor="dispute-reason">What went wrong</label>
        <textarea id="dispute-reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={1000} />
        <label htmlFor="dispute-evidence">Evidence (optional)</label>
        <textarea
          id="dispute-evidence"
          value={evidence}
          onChange={(e) => setEvidence(e.target.value)}
          maxLength={5000}
        />
        <button type="submit">Sign and file</button>
        <button type="button" onClick={done}>
          Cancel
        </button>
      </form>
      <Alert error={error} />
    </section>
  );
}
