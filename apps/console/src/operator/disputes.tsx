import { FormEvent, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { components } from '@agora/sdk';
import { actionError } from '../actions';
import { Alert, Panel } from '../components';
import { adminPost, useAdmin } from './admin';

type Dispute = components['schemas']['AdminDisputeResponse'];
type Resolved = components['schemas']['DisputeResponse'];
const OUTCOMES = ['client_wins', 'split', 'agent_wins'] as const;

/** Disputes waiting for a decision, oldest first, each with both sides' evidence and the resolve form. */
export function OpenDisputesPanel() {
  const list = useAdmin('/api/v1/admin/disputes', '?limit=50');
  const [done, setDone] = useState<Resolved[]>([]);
  return (
    <Panel
      title="Disputes to decide"
      state={list}
      id="op-disputes"
      empty={list.data?.disputes.length === 0 && done.length === 0}
      emptyText="No dispute is waiting for a decision."
    >
      <ul className="disputes" data-testid="op-disputes">
        {list.data?.disputes.map((d) => (
          <li key={d.id} data-dispute={d.id}>
            <OpenDispute d={d} resolved={(r) => setDone((prev) => [r, ...prev])} />
          </li>
        ))}
      </ul>
      {done.map((r) => (
        <p key={r.id} role="status" data-testid="op-resolved" data-dispute={r.id}>
          <code>{r.id}</code>: {r.resolution?.outcome}, refund {r.resolution?.refundAmount} USDC to the payer, released{' '}
          {r.resolution?.releasedAmount} USDC to the agent.
        </p>
      ))}
    </Panel>
  );
}

function OpenDispute({ d, resolved }: { d: Dispute; resolved: (r: Resolved) => void }) {
  const client = useQueryClient();
  const [outcome, setOutcome] = useState<(typeof OUTCOMES)[number]>('client_wins');
  const [note, setNote] = useState('');
  const [advance, setAdvance] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const advanceable = outcome === 'agent_wins' ? '0.000000' : d.advanceable[outcome];
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setError(undefined);
    setBusy(true);
    try {
      const body = { resolution: outcome, ...(note.trim() ? { note: note.trim() } : {}), advance };
      resolved(await adminPost<Resolved>(`/api/v1/admin/disputes/${d.id}/resolve`, body));
      await client.invalidateQueries({ queryKey: ['admin'] });
    } catch (err) {
      setError(actionError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <details open>
      <summary>
        <code>{d.id}</code> · {d.status} · agent fee {d.agentFee} · filed {new Date(d.createdAt).toLocaleString()}
      </summary>
      <dl className="facts">
        <dt>Agent</dt>
        <dd>
          <code>{d.agentId}</code>
        </dd>
        <dt>Payer</dt>
        <dd>
          <code>{d.clientId}</code>
        </dd>
        <dt>Payer's reason</dt>
        <dd data-testid="op-reason">{d.reason}</dd>
        <dt>Payer's evidence</dt>
        <dd>{d.evidence ?? '–'}</dd>
        <dt>Agent's answer</dt>
        <dd data-testid="op-answer">{d.agentResponse ?? 'none yet'}</dd>
        <dt>Agent's evidence</dt>
        <dd>{d.agentEvidence ?? '–'}</dd>
        <dt>Answer by</dt>
        <dd>{new Date(d.respondBy).toLocaleString()}</dd>
        <dt>Frozen</dt>
        <dd>{d.frozenAmount} USDC</dd>
      </dl>
      <details>
        <summary>The platform's evidence</summary>
        <pre className="evidence">{JSON.stringify(d.platformEvidence.facts, null, 2)}</pre>
      </details>
      <form onSubmit={submit} className="search">
        <label htmlFor={`outcome-${d.id}`}>Decision</label>
        <select
          id={`outcome-${d.id}`}
          value={outcome}
          onChange={(e) => setOutcome(e.target.value as (typeof OUTCOMES)[number])}
        >
          {OUTCOMES.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
        <label htmlFor={`note-${d.id}`}>Note</label>
        <input id={`note-${d.id}`} value={note} onChange={(e) => setNote(e.target.value)} maxLength={1000} />
        {advanceable !== '0.000000' && (
          <label>
            <input type="checkbox" checked={advance} onChange={(e) => setAdvance(e.target.checked)} /> Advance the{' '}
            {advanceable} USDC the agent already withdrew (the platform refunds it now; the agent owes it)
          </label>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Resolving…' : 'Resolve'}
        </button>
      </form>
      <Alert error={error} />
    </details>
  );
}
