import { FormEvent, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { actionError } from '../actions';
import { Alert, Panel, Table } from '../components';
import { adminPost, useAdmin } from './admin';

const age = (ms: number) =>
  ms < 60_000
    ? `${Math.round(ms / 1000)} s`
    : ms < 3_600_000
      ? `${Math.round(ms / 60_000)} min`
      : `${(ms / 3_600_000).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} h`;

/** Suspended agents with who, when and why; reinstate one, or suspend another by id. */
export function SuspensionsPanel() {
  const client = useQueryClient();
  const list = useAdmin('/api/v1/admin/agents/suspended', '?limit=100');
  const [agentId, setAgentId] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const act = async (path: string, body?: unknown) => {
    if (busy) return false;
    setError(undefined);
    setBusy(true);
    try {
      await adminPost(path, body);
      await client.invalidateQueries({ queryKey: ['admin'] });
      return true;
    } catch (err) {
      setError(actionError(err));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const suspend = async (e: FormEvent) => {
    e.preventDefault();
    const body = reason.trim() ? { reason: reason.trim() } : {};
    if (await act(`/api/v1/admin/agents/${encodeURIComponent(agentId.trim())}/suspend`, body)) setAgentId('');
  };
  return (
    <Panel title="Suspensions" state={list} id="op-suspensions">
      <Table testId="op-suspended" label="Suspended agents" head={['Agent', 'Since', 'By', 'Why', 'Action']}>
        {list.data?.agents.map((a) => (
          <tr key={a.id} data-agent={a.id}>
            <td>
              {a.name} <code>{a.id}</code>
            </td>
            <td>{a.suspendedAt ? new Date(a.suspendedAt).toLocaleString() : '–'}</td>
            <td>{a.suspendedBy ?? '–'}</td>
            <td>{a.suspendedReason ?? '–'}</td>
            <td>
              <button type="button" disabled={busy} onClick={() => act(`/api/v1/admin/agents/${a.id}/reinstate`)}>
                Reinstate
              </button>
            </td>
          </tr>
        ))}
      </Table>
      <form onSubmit={suspend} className="search">
        <label htmlFor="op-suspend-id">Suspend agent (id)</label>
        <input id="op-suspend-id" value={agentId} onChange={(e) => setAgentId(e.target.value)} maxLength={36} />
        <label htmlFor="op-suspend-reason">Reason</label>
        <input id="op-suspend-reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} />
        <button type="submit" disabled={busy}>
          Suspend
        </button>
      </form>
      <Alert error={error} />
    </Panel>
  );
}

/** The invariant check's current result and its history (changes, and hourly otherwise). */
export function InvariantsPanel() {
  const inv = useAdmin('/api/v1/admin/invariants', '?limit=50');
  const c = inv.data?.current;
  return (
    <Panel title="Invariants" state={inv} id="op-invariants">
      <p data-testid="op-invariants-now" data-ok={c ? String(c.ok) : 'unknown'}>
        {c
          ? c.ok
            ? `All hold (checked ${new Date(c.checkedAt).toLocaleString()}).`
            : `Violated: ${c.failed.join(', ')} (payouts are paused).`
          : 'Not checked yet.'}
      </p>
      <Table testId="op-invariant-history" label="Invariant history" head={['Checked', 'Result', 'Failed']}>
        {inv.data?.history.map((h) => (
          <tr key={h.id}>
            <td>{new Date(h.checkedAt).toLocaleString()}</td>
            <td>{h.ok ? 'ok' : 'violated'}</td>
            <td>{h.failed.join(', ') || '–'}</td>
          </tr>
        ))}
      </Table>
    </Panel>
  );
}

/** Each queue's depth and the age of its oldest waiting job. */
export function QueuesPanel() {
  const q = useAdmin('/api/v1/admin/queues');
  return (
    <Panel title="Queues" state={q} id="op-queues">
      <Table
        testId="op-queues"
        label="Queues"
        head={['Queue', 'Waiting', 'Active', 'Delayed', 'Failed', 'Oldest waiting']}
      >
        {q.data?.queues.map((x) => (
          <tr key={x.name} data-queue={x.name}>
            <td>{x.name}</td>
            <td>{x.waiting}</td>
            <td>{x.active}</td>
            <td>{x.delayed}</td>
            <td>{x.failed}</td>
            <td>{x.oldestWaitingAgeMs === null ? '–' : age(x.oldestWaitingAgeMs)}</td>
          </tr>
        ))}
      </Table>
    </Panel>
  );
}

/** Withdrawals, refunds, settlements and chain transactions not yet final, oldest first, with their age. */
export function PendingPanel() {
  const p = useAdmin('/api/v1/admin/pending');
  return (
    <Panel
      title="Payouts and settlements not final"
      state={p}
      id="op-pending"
      empty={p.data?.items.length === 0}
      emptyText="Everything is final."
    >
      <Table testId="op-pending" label="Not final" head={['Kind', 'Id', 'Amount', 'Status', 'Age', 'Last error']}>
        {p.data?.items.map((x) => (
          <tr key={`${x.kind}:${x.id}`} data-kind={x.kind} data-id={x.id}>
            <td>{x.kind}</td>
            <td>
              <code>{x.id}</code>
            </td>
            <td>{x.amount ?? '–'}</td>
            <td>{x.status}</td>
            <td>{age(x.ageMs)}</td>
            <td>{x.error ?? '–'}</td>
          </tr>
        ))}
      </Table>
    </Panel>
  );
}

/** Webhook subscriptions marked failed, with why and their last attempt. */
export function FailedWebhooksPanel() {
  const w = useAdmin('/api/v1/admin/webhooks/failed', '?limit=50');
  return (
    <Panel
      title="Failed webhooks"
      state={w}
      id="op-webhooks"
      empty={w.data?.webhooks.length === 0}
      emptyText="No subscription is marked failed."
    >
      <Table testId="op-webhooks" label="Failed webhooks" head={['Agent', 'URL', 'Why', 'Since', 'Last answer']}>
        {w.data?.webhooks.map((x) => (
          <tr key={x.id} data-webhook={x.id}>
            <td>
              <code>{x.agentId.slice(0, 8)}…</code>
            </td>
            <td>
              <code>{x.url}</code>
            </td>
            <td>{x.failureReason ?? '–'}</td>
            <td>{new Date(x.disabledAt).toLocaleString()}</td>
            <td>
              {x.lastResponseStatus ?? '–'} {x.lastError ?? ''}
            </td>
          </tr>
        ))}
      </Table>
    </Panel>
  );
}
