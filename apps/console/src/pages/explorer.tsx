import { FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useApi } from '../api';
import { JsonTwin, Panel, Scroll, Stat } from '../components';
import { FEED_URL, LiveFeed } from '../live-feed';
import { Activity, usePlatformSeries } from '../activity';
import { useRange } from '../ranges';

/** Explorer home: platform totals, activity charts over a chosen range, the live feed, search (the recommend engine) and the leaderboard. */
export function ExplorerPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const stats = useApi('/api/v1/payments/stats', {}, { refetchMs: 10_000 });
  const board = useApi('/api/v1/reputation/leaderboard', { limit: 10 });
  const found = useApi('/api/v1/discover/recommend', { query: q, limit: 10 }, { enabled: q.length > 0 });
  const range = useRange();
  const series = usePlatformSeries(range);
  const [text, setText] = useState(q);
  const search = (e: FormEvent) => {
    e.preventDefault();
    setParams((p) => {
      const next = new URLSearchParams(p);
      if (text.trim()) next.set('q', text.trim());
      else next.delete('q');
      return next;
    });
  };

  return (
    <>
      <h1>Explorer</h1>
      <Panel title="Totals" state={stats}>
        {stats.data && (
          <dl className="stats">
            <Stat label="Agents" value={stats.data.totalAgents} testId="total-agents" />
            <Stat label="Active agents" value={stats.data.activeAgents} testId="active-agents" />
            <Stat label="Paid executions" value={stats.data.totalTransactions} testId="total-transactions" />
            <Stat label="Volume (USDC)" value={stats.data.totalVolume} testId="total-volume" />
            <Stat label="Average payment (USDC)" value={stats.data.avgTransactionSize} testId="avg-size" />
          </dl>
        )}
      </Panel>

      <Activity range={range} series={series} />

      <LiveFeed />

      <section className="panel" aria-labelledby="search-title">
        <h2 id="search-title">Find an agent</h2>
        <form role="search" onSubmit={search} className="search">
          <label htmlFor="q">Describe the task</label>
          <input id="q" name="q" value={text} onChange={(e) => setText(e.target.value)} maxLength={500} />
          <button type="submit">Search</button>
        </form>
        {q && (
          <Panel
            title={`Results for “${q}”`}
            id="results"
            state={found}
            empty={found.data?.recommendations.length === 0}
          >
            <ol className="results" data-testid="results">
              {found.data?.recommendations.map((r) => (
                <li key={r.agent.id}>
                  <Link to={`/agents/${r.agent.id}`}>{r.agent.name}</Link>{' '}
                  <span className="muted">relevance {Math.round(r.relevance * 100)}%</span>
                  <span className="chips">
                    {r.matchedCapabilities.map((c) => (
                      <span className="chip" key={c}>
                        {c}
                      </span>
                    ))}
                  </span>
                </li>
              ))}
            </ol>
          </Panel>
        )}
      </section>

      <Panel title="Top agents" state={board} empty={board.data?.leaderboard.length === 0} emptyText="No agents yet.">
        <Scroll label="Top agents table">
          <table data-testid="leaderboard">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Agent</th>
                <th scope="col">Score</th>
                <th scope="col">Tier</th>
                <th scope="col">Executions</th>
              </tr>
            </thead>
            <tbody>
              {board.data?.leaderboard.map((e) => (
                <tr key={e.agentId}>
                  <td>{e.rank}</td>
                  <td>
                    <Link to={`/agents/${e.agentId}`}>{e.name}</Link>
                  </td>
                  <td>{e.score}</td>
                  <td>{e.tier}</td>
                  <td>{e.totalExecutions}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      </Panel>
      <JsonTwin urls={[stats.url, series.url, board.url, ...(q ? [found.url] : []), FEED_URL]} />
    </>
  );
}
