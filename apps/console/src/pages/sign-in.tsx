import { FormEvent, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../api';
import { Alert, Panel, Table } from '../components';
import { useSession } from '../actions';
import { browserWallet, listSessions, revokeSession, signIn } from '../wallet';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Signing in with a browser wallet (a session for reads, in an HTTP-only cookie), the session, and
 * the wallet's sessions with revoke. Actions that move money or change an agent still ask the
 * wallet to sign each one.
 */
export function SignInPage() {
  const client = useQueryClient();
  const session = useSession();
  const sessions = useQuery({ queryKey: ['console-sessions'], queryFn: listSessions, enabled: !!session.data });
  const [as, setAs] = useState<'agent' | 'wallet'>('agent');
  const [agentId, setAgentId] = useState('');
  const [state, setState] = useState<{ busy?: boolean; error?: string }>({});
  // Reset, not invalidate: a query that now fails (signed out) must not keep showing the old session.
  const refresh = () =>
    client
      .resetQueries({ queryKey: ['console-session'] })
      .then(() => client.resetQueries({ queryKey: ['console-sessions'] }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const wallet = browserWallet();
    if (!wallet) return setState({ error: 'No browser wallet found: install one (any EIP-1193 wallet) and reload.' });
    if (as === 'agent' && !UUID.test(agentId.trim())) return setState({ error: 'Enter the agent id (a UUID).' });
    setState({ busy: true });
    try {
      await signIn(
        wallet,
        as === 'agent' ? { kind: 'agent', agentId: agentId.trim().toLowerCase() } : { kind: 'wallet' },
      );
      setState({});
      await refresh();
    } catch (err) {
      const declined = (err as { code?: number }).code === 4001;
      setState({
        error: declined
          ? 'The wallet declined to sign: nothing changed.'
          : err instanceof ApiError
            ? `${err.code}: ${err.message}`
            : 'Could not sign in.',
      });
    }
  };
  const revoke = async (id: string) => {
    await revokeSession(id).catch(() => undefined);
    await refresh();
  };

  const s = session.data;
  return (
    <>
      <h1>Sign in</h1>
      {s ? (
        <section className="panel" aria-labelledby="signed-in-title">
          <h2 id="signed-in-title">Signed in</h2>
          <p data-testid="signed-in">
            As{' '}
            {s.agentId ? (
              <>
                agent <code>{s.agentId}</code>
              </>
            ) : (
              'wallet'
            )}{' '}
            with <code>{s.wallet}</code>, until {new Date(s.expiresAt).toLocaleTimeString()}.
          </p>
          <button type="button" onClick={() => revoke(s.id)}>
            Sign out
          </button>
        </section>
      ) : (
        <section className="panel" aria-labelledby="sign-in-title">
          <h2 id="sign-in-title">Sign in with your wallet</h2>
          <p className="muted">
            Your wallet signs one message (EIP-4361) that lets this browser read for an hour at most. It moves no money:
            a withdrawal or a change still asks your wallet to sign it.
          </p>
          <form onSubmit={submit} className="search">
            <fieldset>
              <legend>Sign in as</legend>
              <label>
                <input type="radio" name="as" checked={as === 'agent'} onChange={() => setAs('agent')} /> an agent I own
              </label>
              <label>
                <input type="radio" name="as" checked={as === 'wallet'} onChange={() => setAs('wallet')} /> my paying
                wallet
              </label>
            </fieldset>
            {as === 'agent' && (
              <>
                <label htmlFor="agent-id">Agent id</label>
                <input id="agent-id" value={agentId} onChange={(e) => setAgentId(e.target.value)} maxLength={36} />
              </>
            )}
            <button type="submit" disabled={state.busy}>
              {state.busy ? 'Waiting for the wallet…' : 'Sign in'}
            </button>
          </form>
          <Alert error={state.error} />
        </section>
      )}
      {s && (
        <Panel title="Your sessions" state={sessions}>
          <Table testId="sessions" label="Sessions" head={['Signed in', 'As', 'Until', 'State', 'Action']}>
            {sessions.data?.sessions.map((x) => (
              <tr key={x.id} data-session={x.id}>
                <td>{new Date(x.createdAt).toLocaleString()}</td>
                <td>{x.agentId ? `agent ${x.agentId.slice(0, 8)}…` : 'wallet'}</td>
                <td>{new Date(x.expiresAt).toLocaleTimeString()}</td>
                <td>
                  {x.revokedAt
                    ? 'revoked'
                    : Date.parse(x.expiresAt) < Date.now()
                      ? 'expired'
                      : x.current
                        ? 'this browser'
                        : 'live'}
                </td>
                <td>
                  {!x.revokedAt && Date.parse(x.expiresAt) > Date.now() && (
                    <button
                      type="button"
                      onClick={() => revoke(x.id)}
                      aria-label={`Revoke the session from ${new Date(x.createdAt).toLocaleString()}`}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        </Panel>
      )}
    </>
  );
}
