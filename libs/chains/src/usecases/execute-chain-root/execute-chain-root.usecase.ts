import { Injectable, Logger } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { Clock, FaultInjector, formatMicros, InjectedFault, ValidationException } from '@app/common';
import { AppConfig } from '@app/config';
import { SettlementFailed } from '@app/onchain';
import { activeSpanIds, inSpan } from '@app/tracing';
import { allWrites, PG_NOT_CLAIMED, pgErrorCode, Queryable, TransactionRunner } from '@app/database';
import {
  AdmitExecution,
  Admitted,
  ChargeExecution,
  ExecuteCommand,
  ExecuteRejected,
  ExecutionEntity,
  ExecutionsRepository,
  executionSpan,
  KnownSettlement,
  lostAtCommit,
  newExecution,
  PENDING,
  RecordFailedRun,
  RunAgent,
  runClaimUntil,
  settlementKnown,
  unconfirmed,
} from '@app/execution';
import { ChainBudget } from '../../chain-budget';
import { ChainsRepository } from '../../chains.repository';
import { ChainTokenPayload, ChainTokens } from '../../chain-tokens';
import { ChainFundings } from '../../funding/chain-funding';
import { chainParams, ChainRequest } from './chain-request';
import { ChainedResult, traceparent } from '../execute-chained/execute-chained.usecase';

/** Thrown when the chain could not be funded before its root ran: nothing ran; what moved is refunded by the worker. */
const notFunded = (why: string) =>
  new SettlementFailed(
    `The chain's payment could not be settled before its root ran (${why}); nothing ran, and if the payment settles later all of it is refunded`,
  );

/**
 * A chain root (`POST /execute` with `chain: {budget?, maxDepth?}`; resolutions §5): admitted like
 * any paid execute, at the root's cost plus the budget. Since the root's sub-calls spend the
 * budget while the root runs, the payment is settled before the agent is called: one transaction
 * records the payment settled, the root execution, the chain, its funding (the payment's whole
 * value into chain:budget) and the root node's reservation. The root agent gets its token (depth
 * 0, 30 s) in `body.chain` and X-Chain-Token; its end (charged from its reservation, or the
 * reservation returned) lets the worker finish the chain and refund what is left.
 */
@Injectable()
export class ExecuteChainRoot {
  private readonly logger = new Logger(ExecuteChainRoot.name);

  constructor(
    private readonly admit: AdmitExecution,
    private readonly funding: ChainFundings,
    private readonly tokens: ChainTokens,
    private readonly chains: ChainsRepository,
    private readonly budget: ChainBudget,
    private readonly runAgent: RunAgent,
    private readonly charge: ChargeExecution,
    private readonly recordFailure: RecordFailedRun,
    private readonly repo: ExecutionsRepository,
    private readonly tx: TransactionRunner,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly faults: FaultInjector,
  ) {}

  /** Traced: the chain's trace is the request's, and the root node's span id its agora.execute span's. */
  /** `chain` as the client asked (its budget's bounds checked here first: VALIDATION_ERROR before anything runs). */
  execute(request: Omit<ExecuteCommand, 'chain'> & { chain: ChainRequest }): Promise<ChainedResult> {
    const cmd = { ...request, chain: chainParams(request.chain) };
    return executionSpan(cmd, () => this.open(cmd));
  }

  private async open(
    cmd: ExecuteCommand & { chain: { budget: bigint; maxDepth: number | null } },
  ): Promise<ChainedResult> {
    if (cmd.async || cmd.idempotencyKey) {
      throw new ValidationException([
        {
          field: cmd.async ? 'async' : 'idempotencyKey',
          messages: ['a chain root runs synchronously, without an idempotency key'],
        },
      ]);
    }
    const admitted = await inSpan('agora.execute.admit', {}, () => this.admit.execute(cmd));
    if (admitted.kind !== 'admitted') throw new Error('a chain root has no idempotency key to replay');
    const { target, price, funding: payment, limits } = admitted;
    const now = this.clock.now();
    const chainId = randomUUID();
    const { traceId, spanId, sampled } = activeSpanIds() ?? {
      traceId: randomBytes(16).toString('hex'),
      spanId: randomBytes(8).toString('hex'),
    };
    const tf = sampled === false ? '00' : '01'; // tracing off: no decision was made, the agent may sample
    const maxDepth = cmd.chain.maxDepth ?? Math.min(5, target.agent.chainSettings.chain_max_depth);
    const execution = newExecution({
      agentId: target.agent.id,
      capabilityId: target.capability.capabilityId,
      payer: payment.payer,
      input: cmd.input,
      price,
      paymentId: payment.id,
      headerHash: payment.proofHash,
      chainId,
      isAsync: false,
      callbackUrl: cmd.callbackUrl ?? null,
      lockedUntil: runClaimUntil(now.getTime(), this.config),
      route: cmd.route,
    });
    const rootCost = price.amount - cmd.chain.budget;
    const node = this.funding.chainNode({
      executionId: execution.id,
      chainId,
      parentExecutionId: null,
      agentId: target.agent.id,
      capabilityId: target.capability.capabilityId,
      depth: 0,
      spanId,
      reserved: rootCost,
      startedAt: now,
      rootWallet: payment.payer,
      caller: payment.payer,
    });
    const chainRow = {
      id: chainId,
      rootExecutionId: execution.id,
      rootAgentId: target.agent.id,
      rootWallet: payment.payer,
      paymentId: payment.id,
      budget: cmd.chain.budget,
      maxDepth,
      traceId,
      startedAt: now,
      expiresAt: new Date(now.getTime() + this.config.chainTimeoutS * 1000),
    };
    const fund = (sql: Queryable) =>
      [this.budget.fund(sql, chainId, price.amount, payment.id), node.enter(sql)] as const;
    // What is known of the payment once it is written (a failure after that answers unconfirmed, never "pay again").
    let known: KnownSettlement | null = null;
    const markIfLost = (err: unknown) => {
      if (lostAtCommit(err)) known = { ...PENDING }; // lost at COMMIT: it may be written (the worker finds it)
      throw err;
    };
    try {
      if (!payment.settlesOutside) {
        // Settled inside Postgres: the payment, the root, the chain, its funding and the root's reservation in one transaction.
        await this.tx
          .pipelined((sql) =>
            allWrites([
              payment.recordInline(sql, execution.id),
              this.repo.insert(sql, execution),
              this.chains.insert(sql, chainRow),
              ...fund(sql),
            ]),
          )
          .catch(markIfLost);
      } else {
        // Recorded first (payment reserved, root claimed by this request, chain pending), settled on chain, then funded.
        await this.tx
          .pipelined((sql) =>
            allWrites([
              payment.reserve(sql, execution.id),
              this.repo.insert(sql, execution),
              this.chains.insert(sql, chainRow),
            ]),
          )
          .catch(markIfLost);
        known = { ...PENDING };
        // Tests: the process "dies" here, with the chain recorded and its payment not yet settled.
        await this.faults.reach('chain.after-record');
        await this.settleThenFund(payment, execution.id, fund, known);
      }
    } catch (err) {
      // Written, then lost (Postgres first): the chain's worker finishes it (funds and ends it, or refunds it).
      // (An injected fault stands for the process dying there: no answer at all, as before.)
      if (known && !(err instanceof SettlementFailed || err instanceof InjectedFault))
        return this.unconfirmed(execution, chainId, known, limits, err);
      payment.giveBack(err);
      throw new ExecuteRejected(err, limits);
    }
    known = { settlementStatus: 'settled', txHash: payment.receipt().txHash };
    try {
      const budget = formatMicros(cmd.chain.budget);
      const rootToken: Omit<ChainTokenPayload, 'exp'> = {
        cid: chainId,
        d: 0,
        md: maxDepth,
        rb: budget,
        tb: budget,
        pa: null,
        rw: payment.payer,
        sa: now.toISOString(),
        tid: traceId,
        sid: spanId,
        tf,
        path: [target.agent.id],
        ptx: execution.id,
      };
      const token = this.tokens.mint(rootToken);
      const run = await this.runAgent.execute(
        execution,
        {
          agentId: target.agent.id,
          endpoint: target.agent.endpoints.execution,
          outputSchema: target.capability.outputSchema,
        },
        { chainId, depth: 0, remainingBudget: budget, token, traceparent: traceparent(traceId, spanId, tf) },
      );
      // A success hands the root's caller a token of the chain: its expiry is written with the charge,
      // so the chain stays open for it (FinishChain waits for it to pass).
      // (Not when the chain takes no calls below its root: maxDepth 0.)
      if (run.ok && maxDepth > 0) node.holdOpenUntil = this.tokens.heldExpiry(now);
      const outcome = run.ok
        ? await this.charge.execute({
            state: 'pending',
            execution,
            funding: node,
            completion: run.completion,
            reputation: target.agent.reputationScore,
          })
        : { execution: await this.recordFailure.execute(execution, run.failure, { funding: node }), settlement: null };
      // What no running node has reserved (sub-calls still running keep theirs).
      const left = formatMicros((await this.chains.find(chainId, this.tx.pooled))?.available ?? 0n);
      const chain: ChainedResult['chain'] = { chainId, depth: 0, remainingBudget: left };
      // The root's caller's token: its calls are the root's children (depth 1), made while it is valid.
      if (outcome.execution.status === 'completed' && node.holdsForCaller)
        chain.childToken = this.tokens.mint(
          { ...rootToken, rb: left, pa: target.agent.id, cl: true },
          node.holdOpenUntil!.getTime(),
        );
      // The root's settlement is its x402 payment's: read back by the transport (settlement null).
      return { ...outcome, settlement: null, replayed: false, limits, chain };
    } catch (err) {
      // Paid and funded: a failure now (the run's record, a read back) is answered with what is known.
      if (err instanceof InjectedFault) throw new ExecuteRejected(err, limits);
      return this.unconfirmed(execution, chainId, known, limits, err);
    }
  }

  /** The root's answer once its payment was written and its end could not be recorded: 202 with the chain's id. */
  private unconfirmed(
    execution: ExecutionEntity,
    chainId: string,
    known: KnownSettlement,
    limits: Admitted['limits'],
    err: unknown,
  ): ChainedResult {
    const facts = { executionId: execution.id, chainId, err: (err as Error).message };
    this.logger.error(facts, 'a paid chain root could not be finished or read back: answered unconfirmed');
    const chain = { chainId, depth: 0, remainingBudget: '0' };
    return { ...unconfirmed(execution, known), replayed: false, limits, chain };
  }

  /**
   * Settles the chain's payment outside Postgres, then funds the chain and reserves the root's
   * cost. A settlement that failed leaves the payment to its retries and the root recorded failed
   * (the worker's EndUnrunChain funds the chain and refunds it all if the money moves later).
   */
  private async settleThenFund(
    payment: Admitted['funding'],
    rootId: string,
    fund: (sql: Queryable) => readonly Promise<unknown>[],
    known: KnownSettlement,
  ): Promise<void> {
    // A failed settlement comes back as a value (SettleFailure), not thrown: anything else thrown propagates.
    const failure = await payment.settleOutside();
    Object.assign(known, settlementKnown(failure, payment.receipt().txHash));
    if (failure) {
      await this.repo.recordFailure(this.tx.pooled, rootId, {
        status: 'failed',
        error: 'the chain payment did not settle',
        timeMs: 0,
        completedAt: this.clock.now(),
      });
      throw notFunded(failure.pending ? 'its transaction is not confirmed yet' : 'the settlement failed');
    }
    try {
      await this.tx.pipelined((sql) => allWrites([payment.link(sql, rootId), ...fund(sql)]));
    } catch (err) {
      if (pgErrorCode(err) !== PG_NOT_CLAIMED) throw err;
      throw notFunded('the worker ended the chain meanwhile');
    }
  }
}
