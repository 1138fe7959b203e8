import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useApi } from '../api';
import { Panel, Table } from '../components';

const TX_STATUSES = ['', 'completed', 'disputed', 'refunded'] as const;
const RUN_STATUSES = ['', 'completed', 'failed', 'timeout', 'refunded', 'pending'] as const;

function Filter(props: {
  id: string;
  label: string;
  value: string;
  options: readonly string[];
  set: (v: string) => void;
}) {
  return (
    <span>
      <label htmlFor={props.id}>{props.label}</label>{' '}
      <select id={props.id} value={props.value} onChange={(e) => props.set(e.target.value)}>
        {props.options.map((o) => (
          <option key={o} value={o}>
            {o || 'any'}
          </option>
        ))}
      </select>
    </span>
  );
}

/** The agent's transactions (charged runs) with status and capability filters (signed read: the session). */
export function TransactionsPanel({ agentId, capabilities }: { agentId: string; capabilities: string[] }) {
  const [status, setStatus] = useState('');
  const [capabilityId, setCapability] = useState('');
  const txs = useApi('/api/v1/payments/history/{agentId}', {
    agentId,
    limit: 50,
    status: status || undefined,
    capabilityId: capabilityId || undefined,
  });
  return (
    <Panel title="Transactions" state={txs} id="transactions">
      <div className="filters">
        <Filter id="tx-status" label="Status" value={status} options={TX_STATUSES} set={setStatus} />
        <Filter
          id="tx-cap"
          label="Capability"
          value={capabilityId}
          options={['', ...capabilities]}
          set={setCapability}
        />
      </div>
      <Table
        testId="owner-transactions"
        label="Transactions"
        head={['When', 'Transaction', 'Capability', 'Earned', 'Status']}
      >
        {txs.data?.map((t) => (
          <tr key={t.id} data-tx={t.id}>
            <td>{new Date(t.created_at).toLocaleString()}</td>
            <td>
              <Link to={`/executions/${t.id}`}>
                <code>{t.id}</code>
              </Link>
            </td>
            <td>{t.capability_id}</td>
            <td>{t.agent_earnings}</td>
            <td>{t.status}</td>
          </tr>
        ))}
      </Table>
    </Panel>
  );
}

/** The agent's executions, failed ones too, with filters and pages (signed read: the session). */
export function ExecutionsPanel({ agentId, capabilities }: { agentId: string; capabilities: string[] }) {
  const [status, setStatus] = useState('');
  const [capabilityId, setCapability] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const runs = useApi('/api/v1/agents/{id}/executions', {
    id: agentId,
    limit: 20,
    status: status || undefined,
    capabilityId: capabilityId || undefined,
    cursor: cursors.at(-1),
  });
  const filter = (set: (v: string) => void) => (v: string) => {
    set(v);
    setCursors([]);
  };
  return (
    <Panel title="Executions" state={runs} id="executions">
      <div className="filters">
        <Filter id="run-status" label="Status" value={status} options={RUN_STATUSES} set={filter(setStatus)} />
        <Filter
          id="run-cap"
          label="Capability"
          value={capabilityId}
          options={['', ...capabilities]}
          set={filter(setCapability)}
        />
      </div>
      <Table
        testId="owner-executions"
        label="Executions"
        head={['When', 'Request', 'Status', 'Agent fee', 'Latency', 'Payer']}
      >
        {runs.data?.executions.map((r) => (
          <tr key={r.requestId} data-request={r.requestId}>
            <td>{new Date(r.createdAt).toLocaleString()}</td>
            <td>
              <Link to={`/executions/${r.requestId}`}>
                <code>{r.requestId}</code>
              </Link>
            </td>
            <td>{r.status}</td>
            <td>{r.agentFee}</td>
            <td>{r.latencyMs === null ? '–' : `${r.latencyMs} ms`}</td>
            <td>
              <code>{r.payer ? `${r.payer.slice(0, 10)}…` : '–'}</code>
            </td>
          </tr>
        ))}
      </Table>
      <div className="pager">
        {cursors.length > 0 && (
          <button type="button" onClick={() => setCursors(cursors.slice(0, -1))}>
            Newer
          </button>
        )}
        {runs.data?.next && (
          <button type="button" onClick={() => setCursors([...cursors, runs.data!.next!])}>
            Older
          </button>
        )}
      </div>
    </Panel>
  );
}
