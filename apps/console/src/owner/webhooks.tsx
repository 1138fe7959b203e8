import { FormEvent, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { components } from '@agora/sdk';
import { useApi } from '../api';
import { actionError, agentAction } from '../actions';
import { Alert, Panel, Scroll } from '../components';

type EventType = components['schemas']['CreateWebhookDto']['events'][number];
const EVENTS: EventType[] = [
  'execution.completed',
  'execution.failed',
  'escrow.released',
  'withdrawal.completed',
  'withdrawal.failed',
  'dispute.filed',
  'dispute.resolved',
  'agent.health_changed',
];

/** The agent's webhooks: each with its delivery log (body sent, answer, status) and redeliver; add or delete. */
export function WebhooksPanel({ agentId }: { agentId: string }) {
  const client = useQueryClient();
  const list = useApi('/api/v1/webhooks/agent/{agentId}', { agentId, limit: 50 });
  const [error, setError] = useState<string>();
  const remove = async (id: string) => {
    try {
      await agentAction(agentId, 'DELETE', `/api/v1/webhooks/${id}`);
      await client.invalidateQueries();
    } catch (err) {
      setError(actionError(err));
    }
  };
  return (
    <Panel title="Webhooks" state={list} id="webhooks">
      <Alert error={error} />
      <ul className="webhooks" data-testid="owner-webhooks">
        {list.data?.webhooks.map((w) => (
          <li key={w.id} data-webhook={w.id}>
            <p>
              <code>{w.url}</code> · {w.status} · {w.events.join(', ')}{' '}
              <button type="button" onClick={() => remove(w.id)} aria-label={`Delete the webhook to ${w.url}`}>
                Delete
              </button>
            </p>
            <Deliveries agentId={agentId} webhookId={w.id} />
          </li>
        ))}
      </ul>
      <AddWebhook agentId={agentId} />
    </Panel>
  );
}

function Deliveries({ agentId, webhookId }: { agentId: string; webhookId: string }) {
  const client = useQueryClient();
  const log = useApi('/api/v1/webhooks/{id}/deliveries', { id: webhookId, limit: 20 }, { refetchMs: 5_000 });
  const [error, setError] = useState<string>();
  const redeliver = async (deliveryId: string) => {
    setError(undefined);
    try {
      await agentAction(agentId, 'POST', `/api/v1/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`);
      await client.invalidateQueries({ queryKey: [log.url] });
    } catch (err) {
      setError(actionError(err));
    }
  };
  if (log.error) return <p className="error">Could not read the delivery log.</p>;
  return (
    <>
      <Alert error={error} />
      <Scroll label={`Deliveries of ${webhookId}`}>
        <table data-testid={`deliveries-${webhookId}`}>
          <thead>
            <tr>
              <th scope="col">Scheduled</th>
              <th scope="col">Event</th>
              <th scope="col">Attempt</th>
              <th scope="col">Status</th>
              <th scope="col">Answer</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {log.data?.deliveries.map((d) => (
              <tr key={d.deliveryId} data-delivery={d.deliveryId} data-status={d.status}>
                <td>{new Date(d.scheduledAt).toLocaleString()}</td>
                <td>{d.eventType}</td>
                <td>{d.manual ? 'manual' : d.attempt}</td>
                <td>{d.status}</td>
                <td>
                  <details>
                    <summary>
                      {d.responseStatus ?? '–'} {d.error ?? ''}
                    </summary>
                    <p>Sent:</p>
                    <pre className="evidence">{d.body ?? '(built when sent)'}</pre>
                    <p>Answered:</p>
                    <pre className="evidence">{d.responseBody ?? '(nothing)'}</pre>
                  </details>
                </td>
                <td>
                  {(d.status === 'failed' || d.status === 'succeeded') && (
                    <button type="button" onClick={() => redeliver(d.deliveryId)}>
                      Redeliver
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
    </>
  );
}

function AddWebhook({ agentId }: { agentId: string }) {
  const client = useQueryClient();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<EventType[]>(['execution.completed']);
  const [error, setError] = useState<string>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    try {
      await agentAction(agentId, 'POST', '/api/v1/webhooks', { agentId, url: url.trim(), events });
      setUrl('');
      await client.invalidateQueries();
    } catch (err) {
      setError(actionError(err));
    }
  };
  const toggle = (ev: EventType) => setEvents(events.includes(ev) ? events.filter((x) => x !== ev) : [...events, ev]);
  return (
    <form onSubmit={submit} className="search">
      <label htmlFor="wh-url">New webhook URL (HTTPS)</label>
      <input id="wh-url" value={url} onChange={(e) => setUrl(e.target.value)} maxLength={2048} />
      <fieldset>
        <legend>Events</legend>
        {EVENTS.map((ev) => (
          <label key={ev}>
            <input type="checkbox" checked={events.includes(ev)} onChange={() => toggle(ev)} /> {ev}
          </label>
        ))}
      </fieldset>
      <button type="submit">Sign and add</button>
      <Alert error={error} />
    </form>
  );
}
