import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { components } from '@agora/sdk';
import { Scroll } from './components';

type FeedEvent = components['schemas']['FeedExecutionEvent'];

export const FEED_URL = '/api/v1/feed/executions';
const KEEP = 20;
const EXPLORERS: Record<string, string> = {
  base: 'https://basescan.org/tx/',
  'base-sepolia': 'https://sepolia.basescan.org/tx/',
  ethereum: 'https://etherscan.io/tx/',
};

const STATE_TEXT = {
  live: 'Live: executions appear here as they end.',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
  closed: 'The live feed is not available now; reload the page to try again.',
} as const;

/** Executions as they end (server-sent events), newest first: the last KEEP. */
export function LiveFeed() {
  const [rows, setRows] = useState<(FeedEvent & { eventId: string })[]>([]);
  const [state, setState] = useState<'connecting' | 'live' | 'reconnecting' | 'closed'>('connecting');
  useEffect(() => {
    const source = new EventSource(FEED_URL);
    source.addEventListener('open', () => setState('live'));
    // The browser reconnects by itself, but not after an error answer (a full feed, too many streams).
    source.addEventListener('error', () =>
      setState(source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting'),
    );
    source.addEventListener('execution', (m) => {
      const e = m as MessageEvent<string>;
      setRows((r) => [{ ...(JSON.parse(e.data) as FeedEvent), eventId: e.lastEventId }, ...r].slice(0, KEEP));
    });
    return () => source.close();
  }, []);

  return (
    <section className="panel" aria-labelledby="feed-title">
      <h2 id="feed-title">Live executions</h2>
      <p className="muted" role="status" data-testid="feed-state" data-state={state}>
        {STATE_TEXT[state]}
      </p>
      {rows.length === 0 ? (
        <p className="muted">No execution has ended since this page opened.</p>
      ) : (
        <Scroll label="Live executions table">
          <table data-testid="feed">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Agent</th>
                <th scope="col">Capability</th>
                <th scope="col">Price (USDC)</th>
                <th scope="col">Status</th>
                <th scope="col">Settlement</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.eventId || e.at} data-transaction-id={e.transactionId ?? undefined}>
                  <td>
                    <time dateTime={e.at}>{new Date(e.at).toLocaleTimeString()}</time>
                  </td>
                  <td>
                    <Link to={`/agents/${e.agentId}`}>{e.agentName}</Link>
                  </td>
                  <td>
                    {e.transactionId ? (
                      <Link to={`/executions/${e.transactionId}`}>{e.capabilityId}</Link>
                    ) : (
                      e.capabilityId
                    )}
                  </td>
                  <td>{e.amount ?? '-'}</td>
                  <td>{e.status}</td>
                  <td>
                    {e.settlement.txHash && e.settlement.network && EXPLORERS[e.settlement.network] ? (
                      <a
                        href={`${EXPLORERS[e.settlement.network]}${e.settlement.txHash}`}
                        rel="noreferrer"
                        target="_blank"
                      >
                        {e.settlement.txHash.slice(0, 10)}…
                      </a>
                    ) : (
                      (e.settlement.status ?? '-')
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
    </section>
  );
}
