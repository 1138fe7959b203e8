import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AppException, Clock, formatMicros } from '@app/common';
import { PG_NOT_CLAIMED, pgErrorCode, TransactionRunner } from '@app/database';
import { activeSpanIds, inSpan } from '@app/tracing';
import {
  ChainCallContext,
  ChargeExecution,
  ExecuteCommand,
  ExecuteRejected,
  ExecuteResult,
  ExecuteTargetCache,
  ExecutionEntity,
  executionSpan,
  newExecution,
  RateLimiter,
  RecordFailedRun,
  RunAgent,
} from '@app/execution';
import { ChainClosed } from '../../chain-budget';
import { chainEnded } from '../../chain-rows';
import { ChainsRepository } from '../../chains.repository';
import { ChainTokenPayload, ChainTokens } from '../../chain-tokens';
import { ChainFunding, ChainFundings } from '../../funding/chain-funding';
import { AdmitChainCall, AdmittedChainCall } from '../admit-chain-call/admit-chain-call.usecase';

/** What a chained response adds: where the chain stands, and a fresh token for the caller's next calls. */
export interface ChainView {
  chainId: string;
  depth: number;
  remainingBudget: string;
  childToken?: string;
}

export type ChainedResult = ExecuteResult & { chain: ChainView };

/** The W3C traceparent of a node: the chain's trace, the node's span, the chain's trace flags ('01' sampled). */
export function traceparent(traceId: string, spanId: string, flags: '00' | '01' = '01'): string {
  return `00-${traceId}-${spanId}-${flags}`;
}

/**
 * A chained `POST /execute` (X-Chain-Token; resolutions §5): admitted (AdmitChainCall: with the
 * target in memory, nothing read), then its node written with the reservation of its most cost
 * in one round trip, COMMIT included, guarded by the target's version (BUDGET_EXCEEDED, an ended
 * chain or a moved target refuse it with nothing written); the agent called with its own token
 * (the path extended by it, 30 s) and the chain's traceparent; then charged from the reservation
 * or, failed, the reservation returned, with the execution's row written only with its end. The
 * answer carries the chain's remaining budget and, on success, a fresh token for the caller.
 */
@Injectable()
export class ExecuteChained {
  constructor(
    private readonly admit: AdmitChainCall,
    private readonly funding: ChainFundings,
    private readonly tokens: ChainTokens,
    private readonly chains: ChainsRepository,
    private readonly runAgent: RunAgent,
    private readonly charge: ChargeExecution,
    private readonly recordFailure: RecordFailedRun,
    private readonly limiter: RateLimiter,
    private readonly targets: ExecuteTargetCache,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  /**
   * Traced in the chain's trace: a child of the calling node's span. A request that carried that
   * trace (an agent propagating the traceparent it got) is already in it; one that did not is
   * linked to its own. The node's span id is its agora.execute span's.
   */
  async execute(cmd: ExecuteCommand & { chainToken: string }): Promise<ChainedResult> {
    const call = await inSpan('agora.execute.admit', {}, () => this.admit.execute(cmd));
    return executionSpan(cmd, () => this.enterAndRun(cmd, call), {
      traceId: call.token.tid,
      spanId: call.token.sid,
      sampled: call.token.tf !== '00',
    });
  }

  private async enterAndRun(
    cmd: ExecuteCommand & { chainToken: string },
    admitted: AdmittedChainCall,
  ): Promise<ChainedResult> {
    let call = admitted;
    let entered = await this.enter(call, cmd);
    if (entered === 'stale') {
      // The remembered target moved since it was read: admitted again on a fresh read (its slot given back first).
      this.limiter.giveBackAgentSlot(call.target.agent.id, call.limits.agentSlot);
      call = await this.admit.execute(cmd, true);
      entered = await this.enter(call, cmd);
    }
    if (entered === 'stale') throw new Error('a freshly read target cannot be stale');
    try {
      return await this.run({ ...call, ...entered });
    } catch (err) {
      throw new ExecuteRejected(err, call.limits);
    }
  }

  /**
   * The node enters its chain with the reservation of its most cost, in one round trip (COMMIT
   * included), guarded by the remembered target's version: 'stale' (nothing written) when it moved.
   */
  private async enter(
    call: AdmittedChainCall,
    cmd: ExecuteCommand,
  ): Promise<{ execution: ExecutionEntity; funding: ChainFunding; spanId: string } | 'stale'> {
    const { token, chain, target, price, caller, depth, limits } = call;
    const execution = newExecution({
      agentId: target.agent.id,
      capabilityId: target.capability.capabilityId,
      payer: chain.rootWallet,
      input: cmd.input,
      price,
      paymentId: null,
      headerHash: null,
      chainId: chain.id,
      isAsync: false,
      callbackUrl: cmd.callbackUrl ?? null,
      lockedUntil: null,
    });
    const spanId = activeSpanIds()?.spanId ?? randomBytes(8).toString('hex');
    const funding = this.funding.chainNode({
      executionId: execution.id,
      chainId: chain.id,
      parentExecutionId: token.ptx,
      agentId: target.agent.id,
      capabilityId: target.capability.capabilityId,
      depth,
      spanId,
      reserved: price.amount,
      startedAt: this.clock.now(),
      rootWallet: chain.rootWallet,
      caller,
      heldByClient: token.cl === true,
    });
    const version = call.version;
    const [guard, reserved] = await this.tx
      .oneTrip(
        (sql) =>
          [
            version === null ? Promise.resolve() : this.targets.unchanged(sql, target.agent.id, version),
            funding.enter(sql),
          ] as const,
      )
      .catch((err: unknown) => {
        // The transaction itself failed (COMMIT, the connection): nothing was written, nothing runs.
        this.limiter.giveBackAgentSlot(target.agent.id, limits.agentSlot);
        throw new ExecuteRejected(err, limits);
      });
    const refused =
      guard.status === 'rejected' ? guard.reason : reserved.status === 'rejected' ? reserved.reason : null;
    if (refused === null) return { execution, funding, spanId };
    // Nothing was written and nothing ran: the agent's window gets its slot back.
    if (guard.status === 'rejected' && pgErrorCode(refused) === PG_NOT_CLAIMED) return 'stale';
    this.limiter.giveBackAgentSlot(target.agent.id, limits.agentSlot);
    throw new ExecuteRejected(
      refused instanceof ChainClosed ? await this.closedReason(chain.id, token) : refused,
      limits,
    );
  }

  private async run(
    c: AdmittedChainCall & { execution: ExecutionEntity; funding: ChainFunding; spanId: string },
  ): Promise<ChainedResult> {
    const { execution, funding, token, chain, target, caller, depth, spanId, limits } = c;
    const remaining = formatMicros(funding.remainingAfterReserve!);
    const context: ChainCallContext = {
      chainId: chain.id,
      depth,
      remainingBudget: remaining,
      token: this.tokens.mint({
        ...tokenBase(token),
        d: depth,
        rb: remaining,
        // The callee's parent agent; none when the root's caller (a wallet) made the call.
        pa: token.cl ? null : caller,
        sid: spanId,
        path: [...token.path, target.agent.id],
        ptx: execution.id,
        // The callee's token is an agent's, even when the root's caller made the call.
        cl: undefined,
      }),
      traceparent: traceparent(chain.traceId, spanId, token.tf),
    };
    const run = await this.runAgent.execute(
      execution,
      {
        agentId: target.agent.id,
        endpoint: target.agent.endpoints.execution,
        outputSchema: target.capability.outputSchema,
      },
      context,
    );
    // A success of the root's caller hands it a fresh token: its expiry is written with the charge, so the chain stays open for it.
    if (run.ok && token.cl) funding.holdOpenUntil = this.tokens.heldExpiry(chain.startedAt);
    // The execution's row is first written now, with its end (its node holds the reservation meanwhile).
    const outcome = run.ok
      ? await this.charge.execute({
          state: 'fresh',
          execution,
          funding,
          completion: run.completion,
          reputation: target.agent.reputationScore,
        })
      : {
          execution: await this.recordFailure.execute(execution, run.failure, { funding, fresh: true }),
          settlement: null,
        };
    if (!outcome.execution)
      throw new AppException(
        'INVALID_STATE',
        'The call outlived its reservation, which was released: nothing was charged',
        { chainId: chain.id },
      );
    const charged =
      outcome.execution.status === 'completed' ? outcome.execution.platformFee + outcome.execution.agentFee : null;
    const left = formatMicros(funding.remainingAfter(charged));
    const view: ChainView = { chainId: chain.id, depth, remainingBudget: left };
    // An agent's fresh token; the root's caller's only while the chain still holds for it (not given up meanwhile).
    if (outcome.execution.status === 'completed' && (!token.cl || funding.holdsForCaller))
      view.childToken = this.tokens.mint({ ...tokenBase(token), rb: left }, funding.holdOpenUntil?.getTime());
    return { ...outcome, replayed: false, limits, chain: view };
  }

  /**
   * Why the chain refused the node once it was written: timed out, ended (for the root's caller:
   * closed, or closing), or the caller's own node ended.
   */
  private async closedReason(chainId: string, token: ChainTokenPayload): Promise<AppException> {
    const chain = await this.chains.find(chainId);
    if (chain && chain.expiresAt.getTime() <= this.clock.nowMs())
      return new AppException('CHAIN_TIMEOUT', 'The chain ran longer than its time limit', { chainId });
    if (!chain || token.cl || chainEnded(chain, this.clock.now()))
      return new AppException('CHAIN_NOT_FOUND', 'The chain has ended', { chainId });
    return new AppException('INVALID_STATE', 'The calling execution has ended: its token no longer opens calls', {
      chainId,
      parentRequestId: token.ptx,
    });
  }
}

/** A token's payload without its expiry (a fresh one is minted from it). */
function tokenBase(t: ChainTokenPayload): Omit<ChainTokenPayload, 'exp'> {
  const { exp, ...rest } = t;
  void exp;
  return rest;
}
