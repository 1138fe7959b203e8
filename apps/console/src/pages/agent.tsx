import { useParams } from 'react-router-dom';
import { useApi } from '../api';
import { JsonTwin, Panel, Scroll, Stat } from '../components';

/** An agent: description, capabilities with pricing and schemas, reputation and its recent events. */
export function AgentPage() {
  const { id = '' } = useParams();
  const agent = useApi('/api/v1/agents/{id}', { id });
  const rep = useApi('/api/v1/reputation/{agentId}', { agentId: id });
  const a = agent.data;
  return (
    <>
      <h1>{a?.name ?? 'Agent'}</h1>
      <Panel title="About" state={agent}>
        {a && (
          <>
            <p>{a.description}</p>
            <dl className="stats">
              <Stat label="Status" value={a.status} testId="agent-status" />
              <Stat label="Score" value={a.reputation_score} testId="agent-score" />
              <Stat label="Wallet" value={<code>{a.wallet}</code>} testId="agent-wallet" />
            </dl>
          </>
        )}
      </Panel>
      <Panel title="Capabilities" state={agent} empty={a?.capabilities.length === 0}>
        <ul className="caps" data-testid="capabilities">
          {a?.capabilities.map((c) => (
            <li key={c.id}>
              <h3>
                {c.name} <code>{c.id}</code>
              </h3>
              <p>{c.description}</p>
              <p>
                {c.pricing.model}: {c.pricing.basePrice} {c.pricing.currency}
                {c.pricing.maxPrice ? ` (at most ${c.pricing.maxPrice})` : ''}
              </p>
              <details>
                <summary>Input and output schemas</summary>
                <pre>{JSON.stringify({ input: c.inputSchema ?? null, output: c.outputSchema ?? null }, null, 2)}</pre>
              </details>
            </li>
          ))}
        </ul>
      </Panel>
      <Panel title="Reputation" state={rep}>
        {rep.data && (
          <>
            <dl className="stats">
              <Stat label="Score" value={rep.data.score} testId="rep-score" />
              <Stat label="Tier" value={rep.data.tier} testId="rep-tier" />
            </dl>
            <h3>Recent events</h3>
            {rep.data.recentEvents.length === 0 ? (
              <p className="muted">No events yet.</p>
            ) : (
              <Scroll label="Reputation events table">
                <table data-testid="rep-events">
                  <thead>
                    <tr>
                      <th scope="col">Event</th>
                      <th scope="col">Change</th>
                      <th scope="col">Score</th>
                      <th scope="col">When</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rep.data.recentEvents.map((e, i) => (
                      <tr key={i}>
                        <td>{e.type}</td>
                        <td>{e.delta > 0 ? `+${e.delta}` : e.delta}</td>
                        <td>{e.score}</td>
                        <td>
                          <time dateTime={e.createdAt}>{new Date(e.createdAt).toLocaleString()}</time>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </Scroll>
            )}
          </>
        )}
      </Panel>
      <JsonTwin urls={[agent.url, rep.url]} />
    </>
  );
}
