import type { components } from '@agora/sdk';
import { apiMicros, formatMicros } from './money';

export type ChainNode = components['schemas']['ChainNodeResponse'];

export interface FlatNode extends ChainNode {
  /** Position in the tree (0 is the root), and the budget left once this node had ended. */
  index: number;
  budgetLeft: string | null;
}

/**
 * The tree's nodes in tree order, each with the budget left after it: the budget minus what the
 * nodes below the root (paid from it; the root was paid apart) had cost by the time it ended.
 */
export function flatten(root: ChainNode, budget: string): FlatNode[] {
  const nodes: ChainNode[] = [];
  const walk = (n: ChainNode) => {
    nodes.push(n);
    n.children.forEach(walk);
  };
  walk(root);
  const paidFromBudget = nodes.slice(1).filter((n) => n.completedAt);
  return nodes.map((n, index) => {
    const end = n.completedAt ? Date.parse(n.completedAt) : null;
    const spent =
      end === null
        ? null
        : paidFromBudget.filter((m) => Date.parse(m.completedAt!) <= end).reduce((s, m) => s + apiMicros(m.cost), 0n);
    return { ...n, index, budgetLeft: spent === null ? null : formatMicros(apiMicros(budget) - spent) };
  });
}

/** Costs of the ended nodes summed by a key of the node (agent, depth), in first-seen order (a running node's cost is its reservation). */
export function totalsBy(
  nodes: ChainNode[],
  key: (n: ChainNode) => string,
): { key: string; cost: string; calls: number }[] {
  const out = new Map<string, { cost: bigint; calls: number }>();
  for (const n of nodes.filter((x) => x.status !== 'running')) {
    const t = out.get(key(n)) ?? { cost: 0n, calls: 0 };
    out.set(key(n), { cost: t.cost + apiMicros(n.cost), calls: t.calls + 1 });
  }
  return [...out].map(([k, t]) => ({ key: k, cost: formatMicros(t.cost), calls: t.calls }));
}
