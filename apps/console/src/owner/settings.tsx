import { FormEvent, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { components } from '@agora/sdk';
import { Alert } from '../components';
import { actionError, agentAction } from '../actions';

type Agent = components['schemas']['AgentResponse'];

interface Draft {
  name: string;
  description: string;
  execution: string;
  status: 'active' | 'inactive';
  capabilities: string;
  chainSettings: string;
}

const draftOf = (a: Agent): Draft => ({
  name: a.name,
  description: a.description ?? '',
  execution: a.endpoints.execution,
  status: a.status === 'inactive' ? 'inactive' : 'active',
  capabilities: JSON.stringify(
    a.capabilities.map(({ id, name, description, inputSchema, outputSchema, pricing }) => ({
      id,
      name,
      description,
      inputSchema,
      outputSchema,
      pricing,
    })),
    null,
    2,
  ),
  chainSettings: JSON.stringify(a.chainSettings, null, 2),
});

/** The changed fields of the draft, as the PATCH takes them (the API validates them as for any client). */
function changes(a: Agent, d: Draft): Record<string, unknown> {
  const was = draftOf(a);
  const out: Record<string, unknown> = {};
  if (d.name !== was.name) out.name = d.name;
  if (d.description !== was.description) out.description = d.description || null;
  if (d.execution !== was.execution) out.endpoints = { ...a.endpoints, execution: d.execution };
  if (d.status !== was.status) out.status = d.status;
  if (d.capabilities !== was.capabilities) out.capabilities = JSON.parse(d.capabilities);
  if (d.chainSettings !== was.chainSettings) out.chainSettings = JSON.parse(d.chainSettings);
  return out;
}

/** The agent's settings, edited and sent as one PATCH the wallet signs. */
export function SettingsPanel({ agent }: { agent: Agent }) {
  const client = useQueryClient();
  const [d, setD] = useState<Draft>(() => draftOf(agent));
  const [state, setState] = useState<{ busy?: boolean; error?: string; saved?: boolean }>({});
  // A new draft only when the agent itself changed (a refetch for health or score keeps the edits).
  useEffect(() => setD(draftOf(agent)), [agent.id, agent.updated_at]);
  const field = (k: keyof Draft) => (e: { target: { value: string } }) => setD({ ...d, [k]: e.target.value });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    let body: Record<string, unknown>;
    try {
      body = changes(agent, d);
    } catch {
      return setState({ error: 'Capabilities and chain settings must be valid JSON.' });
    }
    if (Object.keys(body).length === 0) return setState({ error: 'Nothing changed.' });
    setState({ busy: true });
    try {
      await agentAction(agent.id, 'PATCH', `/api/v1/agents/${agent.id}`, body);
      setState({ saved: true });
      await client.invalidateQueries();
    } catch (err) {
      setState({ error: actionError(err) });
    }
  };
  return (
    <section className="panel" aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <form onSubmit={submit} className="search settings">
        <label htmlFor="set-name">Name</label>
        <input id="set-name" value={d.name} onChange={field('name')} maxLength={100} />
        <label htmlFor="set-description">Description</label>
        <textarea id="set-description" value={d.description} onChange={field('description')} maxLength={1000} />
        <label htmlFor="set-endpoint">Execution endpoint</label>
        <input id="set-endpoint" value={d.execution} onChange={field('execution')} maxLength={2048} />
        <label htmlFor="set-status">Agent status</label>
        <select id="set-status" value={d.status} onChange={field('status')}>
          <option value="active">active</option>
          <option value="inactive">inactive</option>
        </select>
        <label htmlFor="set-capabilities">Capabilities and pricing (JSON)</label>
        <textarea id="set-capabilities" value={d.capabilities} onChange={field('capabilities')} rows={10} />
        <label htmlFor="set-chain">Chain settings (JSON)</label>
        <textarea id="set-chain" value={d.chainSettings} onChange={field('chainSettings')} rows={5} />
        <button type="submit" disabled={state.busy && !state.error && !state.saved}>
          Sign and save
        </button>
      </form>
      <Alert error={state.error} />
      {state.saved && (
        <p role="status" data-testid="settings-saved">
          Saved.
        </p>
      )}
    </section>
  );
}
