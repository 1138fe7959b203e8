import { FormEvent, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useApi } from '../api';
import { actionError, agentAction } from '../actions';
import { Alert, Panel } from '../components';

/** The agent's disputes, newest first; one waiting for an answer opens with its deadline and evidence. */
export function DisputesPanel({ agentId }: { agentId: string }) {
  const list = useApi('/api/v1/disputes/agent/{agentId}', { agentId, limit: 50 });
  return (
    <Panel
      title="Disputes"
      state={list}
      id="disputes"
      empty={list.data?.disputes.length === 0}
      emptyText="No dispute against this agent."
    >
      <ul className="disputes" data-testid="owner-disputes">
        {list.data?.disputes.map((d) => (
          <li key={d.id} data-dispute={d.id}>
            <details open={d.status !== 'resolved'}>
              <summary>
                <code>{d.id}</code> · {d.status} · {d.reason}
              </summary>
              <Dispute id={d.id} agentId={agentId} />
            </details>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

function Dispute({ id, agentId }: { id: string; agentId: string }) {
  const client = useQueryClient();
  const d = useApi('/api/v1/disputes/{id}', { id });
  const [response, setResponse] = useState('');
  const [evidence, setEvidence] = useState('');
  const [state, setState] = useState<{ busy?: boolean; error?: string }>({});
  if (!d.data) return <p className="muted">Loading…</p>;
  const x = d.data;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!response.trim()) return setState({ error: 'Write your answer first.' });
    setState({ busy: true });
    try {
      await agentAction(agentId, 'POST', `/api/v1/disputes/${id}/respond`, {
        response: response.trim(),
        ...(evidence.trim() ? { evidence: evidence.trim() } : {}),
      });
      setState({});
      await client.invalidateQueries();
    } catch (err) {
      setState({ error: actionError(err) });
    }
  };
  return (
    <div className="dispute">
      <dl className="facts">
        <dt>Transaction</dt>
        <dd>
          <code>{x.transactionId}</code>
        </dd>
        <dt>Frozen</dt>
        <dd>{x.frozenAmount} USDC</dd>
        <dt>Answer by</dt>
        <dd data-testid="dispute-deadline">
          <time dateTime={x.respondBy}>{new Date(x.respondBy).toLocaleString()}</time>
        </dd>
        <dt>Client's evidence</dt>
        <dd>{x.evidence ?? '–'}</dd>
        {x.agentResponse && (
          <>
            <dt>Your answer</dt>
            <dd data-testid="dispute-answer">{x.agentResponse}</dd>
          </>
        )}
        {x.resolution && (
          <>
            <dt>Decision</dt>
            <dd>
              {x.resolution.outcome}: refunded {x.resolution.refundAmount}, released {x.resolution.releasedAmount}
            </dd>
          </>
        )}
      </dl>
      <details>
        <summary>The platform's evidence</summary>
        <pre className="evidence" data-testid="dispute-evidence">
          {JSON.stringify(x.platformEvidence.facts, null, 2)}
        </pre>
      </details>
      {x.status === 'pending' && (
        <form onSubmit={submit} className="search">
          <label htmlFor={`answer-${id}`}>Your answer</label>
          <textarea
            id={`answer-${id}`}
            value={response}
            onChange={(e) => setResponse(e.target.value)}
            maxLength={2000}
          />
          <label htmlFor={`evidence-${id}`}>Evidence (optional)</label>
          <textarea
            id={`evidence-${id}`}
            value={evidence}
            onChange={(e) => setEvidence(e.target.value)}
            maxLength={5000}
          />
          <button type="submit" disabled={state.busy && !state.error}>
            Sign and answer
          </button>
          <Alert error={state.error} />
        </form>
      )}
    </div>
  );
}
