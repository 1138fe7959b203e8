import { Link, useParams } from 'react-router-dom';
import { useApi } from '../api';
import { ChainNode, flatten, FlatNode, totalsBy } from '../chain-model';
import { JsonTwin, Panel, Scroll, Stat } from '../components';

/** A chain: its summary, the trace tree, the timeline of its nodes, and its costs by agent and by depth. */
export function ChainPage() {
  const { id = '' } = useParams();
  const chain = useApi('/api/v1/chains/{id}', { id });
  const c = chain.data;
  const tree = (c?.tree ?? null) as ChainNode | null;
  const nodes = tree && c ? flatten(tree, c.budget) : [];
  return (
    <>
      <h1>
        Chain <code>{id}</code>
      </h1>
      <Panel title="Summary" state={chain}>
        {c && (
          <dl className="stats">
            <Stat label="Status" value={c.status} testId="chain-status" />
            <Stat label="Budget (USDC)" value={c.budget} testId="chain-budget" />
            <Stat label="Total cost" value={c.totalCost} testId="chain-total" />
            <Stat label="Budget left" value={c.remainingBudget} testId="chain-left" />
            <Stat label="Refunded" value={c.refund?.amount ?? '-'} testId="chain-refund" />
            <Stat label="Calls" value={c.nodeCount} testId="chain-nodes" />
            <Stat label="Depth reached" value={`${c.maxDepthReached} of ${c.maxDepth}`} testId="chain-depth" />
          </dl>
        )}
      </Panel>
      <Panel title="Trace tree" state={chain} empty={!tree} emptyText="No call yet.">
        {tree && (
          <ul className="tree" data-testid="chain-tree">
            <TreeNode node={nodes[0]} all={nodes} />
          </ul>
        )}
      </Panel>
      <Panel title="Timeline" state={chain} empty={nodes.length === 0}>
        <Timeline nodes={nodes} />
      </Panel>
      <Panel title="Costs" state={chain} empty={nodes.length === 0}>
        <div className="two">
          <Totals
            title="By agent"
            column="Agent"
            rows={totalsBy(nodes, (n) => n.agentName ?? n.agentId)}
            testId="by-agent"
          />
          <Totals title="By depth" column="Depth" rows={totalsBy(nodes, (n) => String(n.depth))} testId="by-depth" />
        </div>
      </Panel>
      <JsonTwin urls={[chain.url]} />
    </>
  );
}

function TreeNode({ node, all }: { node: FlatNode; all: FlatNode[] }) {
  const children = node.children.map((c) => all.find((n) => n.spanId === c.spanId)!).filter(Boolean);
  return (
    <li>
      <div className="node" data-testid="chain-node" data-depth={node.depth}>
        <Link to={`/agents/${node.agentId}`}>{node.agentName ?? node.agentId}</Link> <code>{node.capabilityId}</code>{' '}
        <span className="chip">{node.status}</span> <span data-testid="node-cost">{node.cost}</span> USDC
        {node.executionTimeMs !== null && <span className="muted"> · {node.executionTimeMs} ms</span>}
        {node.index > 0 && node.budgetLeft !== null && (
          <span className="muted">
            {' '}
            · budget left after it: <span data-testid="node-left">{node.budgetLeft}</span>
          </span>
        )}
        {(node.requestId ?? node.transactionId) && (
          <>
            {' '}
            · <Link to={`/executions/${node.requestId ?? node.transactionId}`}>execution</Link>
          </>
        )}
      </div>
      {children.length > 0 && (
        <ul>
          {children.map((c) => (
            <TreeNode key={c.spanId} node={c} all={all} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** Each node as a bar from its start to its end, on the chain's time axis (a Gantt chart). */
function Timeline({ nodes }: { nodes: FlatNode[] }) {
  if (nodes.length === 0) return null;
  const start = Math.min(...nodes.map((n) => Date.parse(n.startedAt)));
  const end = Math.max(...nodes.map((n) => (n.completedAt ? Date.parse(n.completedAt) : Date.parse(n.startedAt))));
  const span = Math.max(1, end - start);
  return (
    <Scroll label="Timeline of the calls">
      <ol className="gantt" data-testid="gantt" aria-label={`Calls over ${span} ms`}>
        {[...nodes]
          .sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt))
          .map((n) => {
            const from = Date.parse(n.startedAt) - start;
            const to = (n.completedAt ? Date.parse(n.completedAt) : end) - start;
            return (
              <li key={n.spanId}>
                <span className="gantt-label">
                  {'· '.repeat(n.depth)}
                  {n.agentName ?? n.agentId}
                </span>
                <span className="gantt-track">
                  <span
                    className={`gantt-bar ${n.status}`}
                    style={{ left: `${(from / span) * 100}%`, width: `${Math.max(0.5, ((to - from) / span) * 100)}%` }}
                    title={`${from}-${to} ms`}
                  />
                </span>
                <span className="gantt-ms">
                  {from}-{to} ms
                </span>
              </li>
            );
          })}
      </ol>
    </Scroll>
  );
}

function Totals(props: {
  title: string;
  column: string;
  rows: { key: string; cost: string; calls: number }[];
  testId: string;
}) {
  const { title, column, rows, testId } = props;
  return (
    <table data-testid={testId}>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">{column}</th>
          <th scope="col">Calls</th>
          <th scope="col">Cost (USDC)</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key}>
            <td>{r.key}</td>
            <td>{r.calls}</td>
            <td>{r.cost}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
