import { Link } from 'react-router-dom';
import { useApi } from '../api';
import { useSession } from '../actions';
import { BalancePanel } from '../owner/balance';
import { WithdrawPanel } from '../owner/withdraw';
import { ExecutionsPanel, TransactionsPanel } from '../owner/activity';
import { DisputesPanel } from '../owner/disputes';
import { WebhooksPanel } from '../owner/webhooks';
import { SettingsPanel } from '../owner/settings';

/**
 * The agent owner's console (signed in as the agent's wallet): balance and its chart, withdraw,
 * transactions and executions, disputes to answer, webhooks and their delivery log, settings.
 * Reads go with the session; every change asks the wallet to sign that one request.
 */
export function OwnerPage() {
  const session = useSession();
  if (session.isPending) return <p role="status">Loading…</p>;
  const s = session.data;
  if (!s?.agentId)
    return (
      <>
        <h1>Your agent</h1>
        <p data-testid="owner-signed-out">
          This page is for an agent's owner. <Link to="/sign-in">Sign in as your agent</Link> with its wallet.
        </p>
      </>
    );
  return <Owner agentId={s.agentId} wallet={s.wallet} />;
}

function Owner({ agentId, wallet }: { agentId: string; wallet: string }) {
  const agent = useApi('/api/v1/agents/{id}', { id: agentId });
  const caps = agent.data?.capabilities.map((c) => c.id) ?? [];
  return (
    <>
      <h1>{agent.data?.name ?? 'Your agent'}</h1>
      <nav aria-label="Sections" className="sections">
        {['balance', 'withdraw', 'transactions', 'executions', 'disputes', 'webhooks', 'settings'].map((s) => (
          <a key={s} href={`#${s}-title`}>
            {s}
          </a>
        ))}
      </nav>
      <p className="muted">
        Signed in as <code>{wallet}</code> for agent <Link to={`/agents/${agentId}`}>{agentId}</Link>.
      </p>
      <BalancePanel agentId={agentId} />
      <WithdrawPanel agentId={agentId} wallet={wallet} />
      <TransactionsPanel agentId={agentId} capabilities={caps} />
      <ExecutionsPanel agentId={agentId} capabilities={caps} />
      <DisputesPanel agentId={agentId} />
      <WebhooksPanel agentId={agentId} />
      {agent.data && <SettingsPanel agent={agent.data} />}
    </>
  );
}
