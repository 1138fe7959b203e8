import { useParams } from 'react-router-dom';
import { useApi } from '../api';
import { AgentCharts, UptimeChart, useAgentSeries } from '../agent-charts';
import { CapabilitiesPanel, ChainSettingsPanel, ReputationPanel, TotalsPanel } from '../agent-panels';
import { JsonTwin, Panel, Stat } from '../components';
import { useRange } from '../ranges';

const percent = (share: number | null) => (share === null ? 'no probes yet' : `${Math.round(share * 10_000) / 100}%`);

/**
 * An agent: description, health and uptime, its charts over a chosen range, all-time totals,
 * reputation with its score over time, capabilities with pricing, schemas and snippets, chain settings.
 */
export function AgentPage() {
  const { id = '' } = useParams();
  const range = useRange();
  const agent = useApi('/api/v1/agents/{id}', { id });
  const rep = useApi('/api/v1/reputation/{agentId}', { agentId: id });
  const totals = useApi('/api/v1/analytics/agent/{agentId}', { agentId: id, period: 'all' });
  const health = useApi('/api/v1/agents/{id}/health', { id });
  const series = useAgentSeries(id, range);
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
              <Stat label="Health" value={a.health.status} testId="agent-health" />
              <Stat label="Uptime 24 h" value={percent(a.health.uptime24h)} testId="agent-uptime-24h" />
              <Stat label="Uptime 7 days" value={percent(a.health.uptime7d)} testId="agent-uptime-7d" />
              <Stat label="Wallet" value={<code>{a.wallet}</code>} testId="agent-wallet" />
            </dl>
          </>
        )}
      </Panel>
      <AgentCharts range={range} series={series} />
      <TotalsPanel state={totals} data={totals.data} />
      <ReputationPanel state={rep} data={rep.data} />
      <Panel title="Health" state={health}>
        {health.data && <UptimeChart hours={health.data.hours} />}
      </Panel>
      <CapabilitiesPanel state={agent} agentId={id} capabilities={a?.capabilities} />
      <ChainSettingsPanel state={agent} settings={a?.chainSettings} />
      <JsonTwin urls={[agent.url, series.url, totals.url, rep.url, health.url]} />
    </>
  );
}
