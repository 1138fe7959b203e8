import { Injectable } from '@nestjs/common';
import { ExecuteTargetReader } from '@app/agents';
import { AppException } from '@app/common';
import { ChainsRepository } from '../../chains.repository';

export interface ChainCostView {
  chainId: string;
  rootTransactionId: string | null;
  totalCost: bigint;
  breakdown: { platformFees: bigint; agentFees: bigint; platformCuts: bigint };
  byAgent: { agentId: string; agentName: string | null; executionCount: number; totalCost: bigint; earnings: bigint }[];
  byDepth: { depth: number; nodeCount: number; totalCost: bigint }[];
}

/**
 * What a chain cost, from the charges of its completed nodes (refunded nodes cost nothing): the
 * platform fees and agent fees (totalCost = their sum; the cut is the platform's share of the
 * agent fees), by agent (its earnings after the cut) and by depth. Each grouping sums to totalCost.
 */
@Injectable()
export class ChainCost {
  constructor(
    private readonly repo: ChainsRepository,
    private readonly agents: ExecuteTargetReader,
  ) {}

  async execute(ref: string): Promise<ChainCostView> {
    const chain = await this.repo.find(ref);
    if (!chain) throw new AppException('CHAIN_NOT_FOUND', 'The chain does not exist', { chainId: ref });
    const nodes = await this.repo.chargedNodes(chain.id);
    const names = await this.agents.names(nodes.map((n) => n.agentId));
    const byAgent = new Map<string, ChainCostView['byAgent'][number]>();
    const byDepth = new Map<number, ChainCostView['byDepth'][number]>();
    const breakdown = { platformFees: 0n, agentFees: 0n, platformCuts: 0n };
    for (const n of nodes) {
      const cost = n.platformFee + n.agentFee;
      breakdown.platformFees += n.platformFee;
      breakdown.agentFees += n.agentFee;
      breakdown.platformCuts += n.platformCut;
      const a = byAgent.get(n.agentId) ?? {
        agentId: n.agentId,
        agentName: names.get(n.agentId) ?? null,
        executionCount: 0,
        totalCost: 0n,
        earnings: 0n,
      };
      byAgent.set(n.agentId, {
        ...a,
        executionCount: a.executionCount + 1,
        totalCost: a.totalCost + cost,
        earnings: a.earnings + n.agentEarnings,
      });
      const d = byDepth.get(n.depth) ?? { depth: n.depth, nodeCount: 0, totalCost: 0n };
      byDepth.set(n.depth, { ...d, nodeCount: d.nodeCount + 1, totalCost: d.totalCost + cost });
    }
    const root = nodes.find((n) => n.depth === 0);
    return {
      chainId: chain.id,
      rootTransactionId: root?.transactionId ?? null,
      totalCost: breakdown.platformFees + breakdown.agentFees,
      breakdown,
      byAgent: [...byAgent.values()],
      byDepth: [...byDepth.values()].sort((x, y) => x.depth - y.depth),
    };
  }
}
