import { inSpan } from '@app/tracing';
import { executionSpan } from '../../../execution-span';
import { Injectable } from '@nestjs/common';
import { AppException, Clock } from '@app/common';
import { allWrites, Queryable, TransactionRunner } from '@app/database';
import { jobId, JobProducer } from '@app/queues';
import { ExecutionEntity } from '../../../entities/execution.entity';
import { ExecuteCommand, ExecuteRejected, ExecuteResult } from '../../../execution.types';
import { ExecutionsRepository } from '../../../executions.repository';
import { IdempotencyKeysRepository, IdempotencyRace } from '../../../idempotency-keys.repository';
import { newExecution } from '../../../execution-rows';
import { InFlightRuns } from '../../../admission/in-flight-runs';
import { Admitted, AdmitExecution, InFlight } from '../admit-execution/admit-execution.usecase';
import { ChargeExecution } from '../../run/charge-execution/charge-execution.usecase';
import { RecordFailedRun } from '../../run/record-failed-run/record-failed-run.usecase';
import { RunAgent } from '../../run/run-agent/run-agent.usecase';
import { lostAtCommit, PENDING, unconfirmed } from '../../run/charge-execution/unconfirmed';

const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

/** Admissions of a duplicate of a running request: the first, and one more after waiting for it. */
const IN_FLIGHT_ROUNDS = 2;

/**
 * POST /execute (resolutions §2, §4): admit, run, charge. A sync request writes nothing before the
 * agent answers (its nonce is claimed, so no replay reaches the agent; the unique index on payments
 * decides at commit); with an idempotency key, the key's in-flight claim stands for it meanwhile
 * (InFlightRuns) and its row is written with the outcome. Async requests are written first (the
 * reservation, the execution, the key, in one transaction) and queued.
 */
@Injectable()
export class Execute {
  constructor(
    private readonly admit: AdmitExecution,
    private readonly inFlight: InFlightRuns,
    private readonly runAgent: RunAgent,
    private readonly recordFailure: RecordFailedRun,
    private readonly charge: ChargeExecution,
    private readonly repo: ExecutionsRepository,
    private readonly keys: IdempotencyKeysRepository,
    private readonly jobs: JobProducer,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  /** One span for the request's execution: admission, the agent call and the charge are its children. */
  execute(cmd: ExecuteCommand): Promise<ExecuteResult> {
    return executionSpan(cmd, () => this.executeTraced(cmd, 1));
  }

  private async executeTraced(cmd: ExecuteCommand, round: number): Promise<ExecuteResult> {
    const admitted = await inSpan('agora.execute.admit', {}, () => this.admit.execute(cmd));
    if (admitted.kind === 'replayed')
      return { execution: admitted.execution, settlement: null, replayed: true, limits: admitted.limits };
    if (admitted.kind === 'inFlight') return this.afterInFlight(cmd, admitted, round);
    const { limits, funding, idempotencyKey } = admitted;
    try {
      const key = idempotencyKey ? this.keyClaim(admitted, idempotencyKey) : undefined;
      if (!cmd.async) return { ...(await this.runFresh(cmd, admitted, key)), limits };
      const execution = this.executionOf(cmd, admitted);
      try {
        await this.tx.pipelined((sql) =>
          allWrites([
            funding.reserve(sql, execution.id),
            this.repo.insert(sql, execution),
            key ? key(sql, execution.id) : Promise.resolve(),
          ]),
        );
      } catch (err) {
        // Lost at COMMIT: perhaps reserved and queued for the sweeper; answered 202, never "send it again".
        if (lostAtCommit(err)) return { ...unconfirmed(execution, PENDING), replayed: false, limits };
        // Not reserved after all (a used nonce excepted): the claim goes back.
        funding.giveBack(err);
        if (!(err instanceof IdempotencyRace)) throw err;
        return { ...(await this.priorOf(admitted)), limits };
      }
      await this.jobs.wake(
        'execution.run',
        { executionId: execution.id },
        { jobId: jobId('execution.run', execution.id, this.clock.nowMs()) },
      );
      return { execution, settlement: null, replayed: false, limits };
    } catch (err) {
      throw new ExecuteRejected(err, limits);
    } finally {
      if (admitted.run) this.inFlight.release(admitted.run);
    }
  }

  /**
   * A duplicate of a request still running. Sync: waits for it to end, then is admitted again (its
   * answer, or this one runs if it died). Async, too many waiting, or still running after the wait:
   * 409 IDEMPOTENCY_CONFLICT (in progress) with Retry-After, nothing charged.
   */
  private async afterInFlight(cmd: ExecuteCommand, admitted: InFlight, round: number): Promise<ExecuteResult> {
    try {
      const waited = !cmd.async && round < IN_FLIGHT_ROUNDS;
      if (waited && (await this.inFlight.waitGone(admitted.claim, admitted.heldBy)) !== 'crowded')
        return await this.executeTraced(cmd, round + 1);
      const retryAfter = await this.inFlight.secondsLeft(admitted.claim);
      throw new ExecuteRejected(stillRunning(admitted.idempotencyKey, retryAfter), {
        ...admitted.limits,
        retryAfterS: retryAfter,
      });
    } catch (err) {
      throw err instanceof ExecuteRejected ? err : new ExecuteRejected(err, admitted.limits);
    }
  }

  /**
   * Sync: the agent first, then one transaction records the payment, the execution in its final
   * state, the idempotency key if any and (settled inside Postgres) the whole charge. A crash before
   * that commit leaves nothing: no charge, no answer, the authorization unused. A key another request
   * took meanwhile (its in-flight claim lost) rolls the transaction back: that request answers.
   */
  private async runFresh(cmd: ExecuteCommand, admitted: Admitted, key: KeyClaim | undefined) {
    const { funding, target } = admitted;
    const execution = this.executionOf(cmd, admitted);
    const keyClaim = key ? (sql: Queryable) => key(sql, execution.id) : undefined;
    try {
      const run = await this.runAgent.execute(execution, {
        agentId: target.agent.id,
        endpoint: target.agent.endpoints.execution,
        outputSchema: target.capability.outputSchema,
      });
      if (!run.ok)
        return {
          execution: await this.recordFailure.execute(execution, run.failure, { funding, fresh: true, keyClaim }),
          settlement: null,
          replayed: false,
        };
      const charged = await this.charge.execute({
        state: 'fresh',
        execution,
        funding,
        completion: run.completion,
        reputation: target.agent.reputationScore,
        keyClaim,
      });
      return { ...charged, replayed: false };
    } catch (err) {
      // Nothing was recorded: the authorization stays unused and may be presented again.
      funding.giveBack(err);
      if (err instanceof IdempotencyRace) return this.priorOf(admitted);
      throw err;
    }
  }

  /** The write that takes the request's key for its execution, inside the transaction that records it. */
  private keyClaim(admitted: Admitted, key: string): KeyClaim {
    const now = this.clock.now();
    return (sql, executionId) =>
      this.keys.claim(sql, {
        payer: admitted.funding.payer,
        key,
        fingerprint: admitted.fingerprint!,
        executionId,
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
        now,
      });
  }

  /** The answer of the request that took this one's key first (same input, else IDEMPOTENCY_CONFLICT). */
  private async priorOf(admitted: Admitted) {
    const prior = await this.admit.idempotent(admitted.funding.payer, admitted.idempotencyKey!, admitted.fingerprint!);
    // Gone again already (the key expired meanwhile): nothing to answer but to try again.
    if (!prior) throw stillRunning(admitted.idempotencyKey!, 1);
    return { execution: prior, settlement: null, replayed: true };
  }

  private executionOf(cmd: ExecuteCommand, a: Admitted): ExecutionEntity {
    return newExecution({
      id: a.requestId,
      agentId: a.target.agent.id,
      capabilityId: a.target.capability.capabilityId,
      payer: a.funding.payer,
      input: cmd.input,
      price: a.price,
      paymentId: a.funding.id,
      headerHash: a.funding.proofHash,
      isAsync: cmd.async,
      callbackUrl: cmd.callbackUrl ?? null,
      lockedUntil: null,
      route: cmd.route,
    });
  }
}

type KeyClaim = (sql: Queryable, executionId: string) => Promise<unknown>;

/** The key's request is still running (as the IETF Idempotency-Key draft answers it: 409), with when to retry. */
const stillRunning = (idempotencyKey: string, retryAfter: number) =>
  new AppException('IDEMPOTENCY_CONFLICT', 'A request with this idempotency key is still running; retry later', {
    idempotencyKey,
    reason: 'in_progress',
    retryAfter,
  });
