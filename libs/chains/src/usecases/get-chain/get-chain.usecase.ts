import { Injectable } from '@nestjs/common';
import { ExecuteTargetReader } from '@app/agents';
import { AppException, Clock } from '@app/common';
import { ChainNodeRow, ChainRow, ChainsRepository } from '../../chains.repository';

/** A node of the trace tree, as the spec's Chain node plus its request id and span id. */
export interface ChainTreeNode {
  requestId: string;
  transactionId: string | null;
  agentId: string;
  agentName: string | null;
  capabilityId: string;
  depth: number;
  status: ChainNodeRow['status'];
  /** What the node was charged (platform fee + agent fee); its reservation while it runs; 0 once refunded. */
  cost: bigint;
  executionTimeMs: number | null;
  spanId: string;
  startedAt: Date;
  completedAt: Date | null;
  children: ChainTreeNode[];
}

export interface ChainStatusView {
  chain: ChainRow;
  rootTransactionId: string | null;
  totalCost: bigint;
  /** Wall clock from the chain's start to its last node's end (or now, while a node runs). */
  totalExecutionTimeMs: number;
  maxDepthReached: number;
  nodeCount: number;
  remainingBudget: bigint;
  tree: ChainTreeNode | null;
}

/** A chain, by its id, its root execution's id or its root transaction's id: the status resource with its trace tree (CHAIN_NOT_FOUND otherwise). */
@Injectable()
export class GetChain {
  constructor(
    private readonly repo: ChainsRepository,
    private readonly agents: ExecuteTargetReader,
    private readonly clock: Clock,
  ) {}

  async execute(ref: string): Promise<ChainStatusView> {
    const chain = await this.repo.find(ref);
    if (!chain) throw new AppException('CHAIN_NOT_FOUND', 'The chain does not exist', { chainId: ref });
    const nodes = await this.repo.nodes(chain.id);
    const names = await this.agents.names(nodes.map((n) => n.agentId));
    const byId = new Map<string, ChainTreeNode>();
    for (const n of nodes) {
      byId.set(n.executionId, {
        requestId: n.executionId,
        transactionId: n.transactionId,
        agentId: n.agentId,
        agentName: names.get(n.agentId) ?? null,
        capabilityId: n.capabilityId,
        depth: n.depth,
        status: n.status,
        cost: n.status === 'completed' ? (n.cost ?? 0n) : n.status === 'running' ? n.reserved : 0n,
        executionTimeMs: n.executionTimeMs,
        spanId: n.spanId,
        startedAt: n.startedAt,
        completedAt: n.completedAt,
        children: [],
      });
    }
    for (const n of nodes) if (n.parentExecutionId) byId.get(n.parentExecutionId)?.children.push(byId.get(n.executionId)!);
    const root = nodes.find((n) => n.depth === 0);
    const ends = nodes.map((n) => (n.completedAt ?? this.clock.now()).getTime());
    return {
      chain,
      rootTransactionId: root?.transactionId ?? null,
      totalCost: nodes.reduce((s, n) => s + (n.status === 'completed' ? (n.cost ?? 0n) : 0n), 0n),
      totalExecutionTimeMs: ends.length ? Math.max(...ends) - chain.startedAt.getTime() : 0,
      maxDepthReached: nodes.reduce((m, n) => Math.max(m, n.depth), 0),
      nodeCount: nodes.length,
      // What no running node has reserved (0 once final: refunded).
      remainingBudget: chain.available,
      tree: root ? byId.get(root.executionId)! : null,
    };
  }
}
