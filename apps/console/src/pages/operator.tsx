import { FormEvent, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../api';
import { checkAdminKey, setAdminKey, useAdminKey } from '../operator/admin';
import { OpenDisputesPanel } from '../operator/disputes';
import { Alert } from '../components';
import { FailedWebhooksPanel, InvariantsPanel, PendingPanel, QueuesPanel, SuspensionsPanel } from '../operator/ops';

/**
 * The operator's console: the admin key entered once for this tab (kept in memory only, forgotten on
 * reload or "Forget the key"), then disputes to decide, suspensions, invariants, queues, payouts and
 * settlements not final, failed webhooks.
 */
export function OperatorPage() {
  const key = useAdminKey();
  return (
    <>
      <h1>Operator</h1>
      {key ? <Operator /> : <KeyForm />}
    </>
  );
}

function KeyForm() {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await checkAdminKey(value);
      setAdminKey(value);
    } catch (err) {
      setValue('');
      setError(err instanceof ApiError ? `${err.code}: ${err.message}` : 'Could not check the key.');
    }
  };
  return (
    <section className="panel" aria-labelledby="key-title">
      <h2 id="key-title">Enter the admin key</h2>
      <p className="muted">
        The key stays in this tab's memory: it is not saved in the browser, and reloading the page forgets it.
      </p>
      <form onSubmit={submit} className="search" autoComplete="off">
        <label htmlFor="admin-key">Admin key</label>
        {/* Not a password field: a browser offers to save those, and the key must stay in this tab. */}
        <input
          id="admin-key"
          type="text"
          className="secret"
          autoComplete="off"
          spellCheck={false}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          maxLength={4096}
        />
        <button type="submit">Use this key</button>
      </form>
      <Alert error={error} />
    </section>
  );
}

function Operator() {
  const client = useQueryClient();
  const forget = () => {
    setAdminKey(null);
    client.removeQueries({ queryKey: ['admin'] });
  };
  return (
    <>
      <p>
        <button type="button" onClick={forget}>
          Forget the key
        </button>
      </p>
      <OpenDisputesPanel />
      <PendingPanel />
      <InvariantsPanel />
      <QueuesPanel />
      <SuspensionsPanel />
      <FailedWebhooksPanel />
    </>
  );
}
