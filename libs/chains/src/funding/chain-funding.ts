import { Injectable } from '@nestjs/common';
import { AppException, Clock } from '@app/common';
import { Queryable } from '@app/database';
import { Accounts } from '@app/ledger';
import { ChargeFacts, Funding, RecordCharge, RecordedCharge, RunCharge } from '@app/payments';
import { JobProducer } from '@app/queues';
import { ChainBudget, ChainEnd, NewNode } from '../chain-budget';
import { wakeFinisher } from '../chain-end';
import { ChainsRepository } from '../chains.repository';

/** A node of a chain as its funding sees it: where it sits, what it reserved, who called it and who pays. */
export interface ChainNodeFunding extends NewNode {
  /** The chain's root wallet: the client whose payment funded the budget. */
  rootWallet: string;
  /** The calling agent (the root wallet for the root node; the root agent for a call of the root's caller). */
  caller: string;
  /** A call made with the token of the root's caller (after the root ended, while the chain is held open). */
  heldByClient?: boolean;
}

/**
 * A chain budget paying for one node (resolutions §5): the reservation of its most cost is taken
 * with the node's row before the run (`enter`; BUDGET_EXCEEDED when the budget cannot cover it),
 * and the execution's row is first written when the run ended; a charge moves its cost out of
 * chain:budget (the rest of the reservation available again), a failure gives it all back. Nothing moves
 * outside Postgres: the chain's payment was settled when the chain was funded. Once the node's end
 * leaves the chain finishable (its root ended, nothing runs), the worker is woken to end it.
 */
export class ChainFunding implements Funding {
  readonly settlesOutside = false;
  readonly refundsUnused = false;
  readonly proofHash = '';
  private end: ChainEnd = { finishable: false, closesAt: null, heldUntil: null };
  /**
   * Set before the charge when the answer hands the root's caller a token (the root's own success,
   * or a success of a call that caller made): its expiry, written with the node's end, keeps the
   * chain open until then.
   */
  holdOpenUntil: Date | null = null;
  /** What the budget had left once this node's reservation was taken. */
  remainingAfterReserve: bigint | null = null;

  constructor(
    readonly node: ChainNodeFunding,
    private readonly deps: { budget: ChainBudget; jobs: JobProducer; charges: RecordCharge; clock: Clock },
  ) {}

  get payer(): string {
    return this.node.rootWallet;
  }

  /** The calling agent; none for a call of the root's caller (a wallet, with its own token): that call is the client's. */
  get callingAgent(): string | undefined {
    return this.node.heldByClient || this.node.caller.startsWith('0x') ? undefined : this.node.caller;
  }

  get id(): string {
    return this.node.chainId;
  }

  /** Before the run, in its own transaction: the node enters the chain and reserves its most cost (BUDGET_EXCEEDED, ChainClosed). */
  async enter(sql: Queryable): Promise<bigint> {
    this.remainingAfterReserve = await this.deps.budget.reserve(
      sql,
      this.node,
      this.node.startedAt,
      this.node.heldByClient ?? false,
    );
    return this.remainingAfterReserve;
  }

  /**
   * Whether the charge kept the chain held for its root's caller up to `holdOpenUntil` (false once
   * the caller gave its tokens up): only then may the answer hand it a token.
   */
  get holdsForCaller(): boolean {
    return this.holdOpenUntil !== null && this.end.heldUntil !== null && this.end.heldUntil >= this.holdOpenUntil;
  }

  /** Beside the execution's first write: nothing, the reservation was taken when the node entered. */
  async reserve(): Promise<unknown> {
    return undefined;
  }

  /** What the budget has (about: other nodes move it too) once this node ended: after its reservation, plus what came back. */
  remainingAfter(cost: bigint | null): bigint {
    return (this.remainingAfterReserve ?? 0n) + this.node.reserved - (cost ?? 0n);
  }

  async settleWrites(sql: Queryable, executionId: string, fresh: boolean, charge: ChargeFacts): Promise<unknown> {
    this.end = await this.deps.budget.complete(sql, executionId, { ...charge, holdUntil: this.holdOpenUntil });
    return this.end;
  }

  async failWrites(
    sql: Queryable,
    executionId: string,
    failure: { executionTimeMs: number; completedAt: Date },
  ): Promise<unknown> {
    this.end = await this.deps.budget.release(sql, { executionId }, failure);
    return this.end;
  }

  async settleOutside(): Promise<null> {
    throw new Error('a chain node is charged inside Postgres');
  }

  /** The charge paid from the chain's budget (only the cost: the rest of the reservation never left it); the calling agent asked. */
  recordCharge(sql: Queryable, charge: RunCharge): Promise<RecordedCharge> {
    return this.deps.charges.write(sql, {
      ...charge,
      paymentId: null,
      payerWallet: this.node.rootWallet,
      requestingAgent: this.node.caller,
      source: { from: Accounts.chainBudget(this.node.chainId) },
    });
  }

  receipt() {
    return { txHash: null, receipt: null };
  }

  async signReceipt(): Promise<null> {
    return null;
  }

  giveBack(): void {}

  async afterEnd(charged?: RecordedCharge): Promise<void> {
    if (charged) await this.deps.charges.afterCommit(charged);
    await wakeFinisher(this.deps.jobs, this.node.chainId, this.end, this.deps.clock.nowMs());
  }
}

/** Builds the funding of a chain node: one entering now, or a stored one (its chain and parent read). */
@Injectable()
export class ChainFundings {
  constructor(
    private readonly chains: ChainsRepository,
    private readonly budget: ChainBudget,
    private readonly jobs: JobProducer,
    private readonly charges: RecordCharge,
    private readonly clock: Clock,
  ) {}

  /** A stored execution's node in the chain `chainId`; NOT_FOUND when there is none. */
  async forNode(chainId: string, executionId: string): Promise<ChainFunding> {
    const [chain, node] = await Promise.all([this.chains.find(chainId), this.chains.node(executionId)]);
    if (!chain || !node) throw new AppException('NOT_FOUND', `Chain node ${executionId} not found`);
    const parent = node.parentExecutionId ? await this.chains.node(node.parentExecutionId) : null;
    return this.chainNode({ ...node, rootWallet: chain.rootWallet, caller: parent?.agentId ?? chain.rootWallet });
  }

  chainNode(node: ChainNodeFunding): ChainFunding {
    return new ChainFunding(node, { budget: this.budget, jobs: this.jobs, charges: this.charges, clock: this.clock });
  }
}
