import { Injectable } from '@nestjs/common';
import { ReplicaReads } from '@app/database';
import { ExecuteTargetReader } from '@app/agents';
import { PayerRead } from '@app/auth';
import type { PayerReadProof } from '@app/auth';
import { AppException, Clock } from '@app/common';
import { ChainReadScope } from '../../chain-read-scope';
import { ChainTokens } from '../../chain-tokens';
import { ChainNodeRow, ChainRow, ChainsRepository, ChainStatus } from '../../chains.repository';
import { finalStatus } from '../finish-chain/finish-chain.usecase';

/** A node of the trace tree, as the spec's Chain node plus its request id and span id. */
export interface ChainTreeNode {
  /** Null when the reader may not read this node's execution (ChainReadScope): the request id reads the output. */
  requestId: string | null;
  /** The node's charge once completed: public, as in the spec (it names no execution and reads no output). */
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
  /**
   * As its nodes stand: `running` while one runs, then what the chain's end will record (completed,
   * partial or failed) even while it is held open for the root's caller; `pending` until funded.
   */
  status: ChainStatus;
  /**
   * When the chain closes (its unspent budget refunded) if nothing more runs: the expiry of the last
   * token handed to the root's caller, at most the chain's time limit; once closed, when it closed.
   */
  closesAt: Date | null;
  /** The root's request id: only for the paying client. */
  rootRequestId: string | null;
  /** The root's charge once completed: public, as in the spec. */
  rootTransactionId: string | null;
  totalCost: bigint;
  /** Wall clock from the chain's start to its last node's end (or now, while a node runs). */
  totalExecutionTimeMs: number;
  maxDepthReached: number;
  nodeCount: number;
  remainingBudget: bigint;
  tree: ChainTreeNode | null;
}

/**
 * Who reads a chain: the chain token presented, if any, and the payer's proof (its wallet's signature or
 * console session, PayerRead). A payment header is no proof here: the one that paid for a chain is
 * settled on chain, and a standard client's header is rebuilt from that public calldata.
 */
export interface ChainReader {
  chainToken?: string;
  payer?: PayerReadProof;
}

/**
 * A chain, by its id, its root execution's id or its root transaction's id: the status resource
 * with its trace tree (CHAIN_NOT_FOUND otherwise), the same whichever id names it. Every node is
 * listed with its transactionId (public, as in the spec); its requestId only to a reader who may
 * read its execution (ChainReadScope): the paying client (its wallet's signature or console session,
 * or a token handed to the root's caller) all of them, a token's holder its subtree (a token that
 * reads nothing: FORBIDDEN), anyone else none (a payment header included: see ChainReader).
 */
@Injectable()
export class GetChain {
  constructor(
    private readonly repo: ChainsRepository,
    private readonly agents: ExecuteTargetReader,
    private readonly tokens: ChainTokens,
    private readonly scope: ChainReadScope,
    private readonly clock: Clock,
    private readonly replica: ReplicaReads,
    private readonly payerRead: PayerRead,
  ) {}

  async execute(ref: string, reader: ChainReader): Promise<ChainStatusView> {
    const claims = reader.chainToken === undefined ? null : this.tokens.verify(reader.chainToken);
    // A public read: the replica while it is fresh (ReplicaReads), else the primary. A chain token's read
    // scope is decided on the primary: a replica's rows may be DATABASE_READ_MAX_LAG_MS old, where a holder
    // that has ended still runs (and its token would still read its subtree).
    const rows = claims === null ? this.replica.pooled : this.repo.reader;
    const chain = await this.repo.find(ref, rows);
    if (!chain) throw new AppException('CHAIN_NOT_FOUND', 'The chain does not exist', { chainId: ref });
    const nodes = await this.repo.nodes(chain.id, rows);
    // A token of the root's caller is the payer's, handed to it alone: it reads as the payer does.
    const payer =
      (claims?.cl === true && claims.cid === chain.id) ||
      (await this.payerRead.reads(chain.rootWallet, reader.payer ?? {}));
    const readable = payer ? null : claims ? this.scope.readable(claims, chain.id, nodes) : new Set<string>();
    const shown = (n: ChainNodeRow) => readable === null || readable.has(n.executionId);
    const names = await this.agents.names(nodes.map((n) => n.agentId));
    const byId = new Map<string, ChainTreeNode>();
    for (const n of nodes) {
      byId.set(n.executionId, {
        requestId: shown(n) ? n.executionId : null,
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
    for (const n of nodes)
      if (n.parentExecutionId) byId.get(n.parentExecutionId)?.children.push(byId.get(n.executionId)!);
    const root = nodes.find((n) => n.depth === 0);
    const ends = nodes.map((n) => (n.completedAt ?? this.clock.now()).getTime());
    const open = chain.status === 'running';
    return {
      chain,
      status: open ? (nodes.some((n) => n.status === 'running') ? 'running' : finalStatus(nodes)) : chain.status,
      closesAt: open
        ? new Date(Math.min((chain.heldUntil ?? chain.expiresAt).getTime(), chain.expiresAt.getTime()))
        : chain.completedAt,
      rootRequestId: payer ? chain.rootExecutionId : null,
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
