import { Panel, Scroll, Stat } from './components';
import { ScoreChart } from './agent-charts';
import { Snippets, SnippetCapability } from './snippets';

type State = { isPending: boolean; error: unknown };

interface Totals {
  executions: { total: number; successful: number; failed: number; successRate: number };
  earnings: { gross: string; platformFees: string; net: string };
  performance: {
    avgExecutionTime: number;
    p50ExecutionTime: number;
    p95ExecutionTime: number;
    p99ExecutionTime: number;
  };
  disputes: { total: number; won: number; lost: number; pending: number };
}

/** All-time totals: executions, earnings, latency and disputes with their outcomes. */
export function TotalsPanel({ state, data }: { state: State; data?: Totals }) {
  return (
    <Panel title="All time" state={state}>
      {data && (
        <dl className="stats">
          <Stat label="Executions" value={data.executions.total} testId="all-executions" />
          <Stat label="Success rate" value={`${data.executions.successRate}%`} testId="all-success-rate" />
          <Stat label="Paid by clients (USDC)" value={data.earnings.gross} testId="all-gross" />
          <Stat label="Earned (USDC)" value={data.earnings.net} testId="all-net" />
          <Stat
            label="Latency p50 / p95 / p99 (ms)"
            value={`${data.performance.p50ExecutionTime} / ${data.performance.p95ExecutionTime} / ${data.performance.p99ExecutionTime}`}
            testId="all-latency"
          />
          <Stat
            label="Disputes: won / lost / pending"
            value={`${data.disputes.won} / ${data.disputes.lost} / ${data.disputes.pending} of ${data.disputes.total}`}
            testId="all-disputes"
          />
        </dl>
      )}
    </Panel>
  );
}

interface Reputation {
  score: number;
  tier: string;
  recentEvents: { type: string; delta: number; score: number; createdAt: string }[];
}

/** Score, tier, the score over the recent events, and the events. */
export function ReputationPanel({ state, data }: { state: State; data?: Reputation }) {
  return (
    <Panel title="Reputation" state={state}>
      {data && (
        <>
          <dl className="stats">
            <Stat label="Score" value={data.score} testId="rep-score" />
            <Stat label="Tier" value={data.tier} testId="rep-tier" />
          </dl>
          <ScoreChart events={data.recentEvents} />
          <h3>Recent events</h3>
          {data.recentEvents.length === 0 ? (
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
                  {data.recentEvents.map((e, i) => (
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
  );
}

interface Capability extends SnippetCapability {
  name: string;
  description: string;
  pricing: { model: string; basePrice: string; maxPrice?: string | null; currency: string };
  outputSchema?: unknown;
}

/** Each capability: pricing, schemas, and how to call it. */
export function CapabilitiesPanel(props: { state: State; agentId: string; capabilities?: Capability[] }) {
  const { state, agentId, capabilities } = props;
  return (
    <Panel title="Capabilities" state={state} empty={capabilities?.length === 0}>
      <ul className="caps" data-testid="capabilities">
        {capabilities?.map((c) => (
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
            <Snippets agentId={agentId} capability={c} />
          </li>
        ))}
      </ul>
    </Panel>
  );
}

interface ChainSettings {
  chain_enabled: boolean;
  chain_max_depth: number;
  chain_allowed_callers: string[];
  chain_blocked_callers: string[];
}

/** Whether other agents may call it inside a chain, how deep, and who may or may not. */
export function ChainSettingsPanel({ state, settings }: { state: State; settings?: ChainSettings }) {
  const list = (ids: string[]) => (ids.length ? ids.join(', ') : 'none');
  return (
    <Panel title="Chain settings" state={state}>
      {settings && (
        <dl className="stats" data-testid="chain-settings">
          <Stat label="Callable in chains" value={settings.chain_enabled ? 'yes' : 'no'} testId="chain-enabled" />
          <Stat label="Deepest chain" value={settings.chain_max_depth} testId="chain-max-depth" />
          <Stat label="Only these callers" value={list(settings.chain_allowed_callers)} testId="chain-allowed" />
          <Stat label="Blocked callers" value={list(settings.chain_blocked_callers)} testId="chain-blocked" />
        </dl>
      )}
    </Panel>
  );
}
