import { inSpan } from '@app/tracing';
import { executionSpan } from '../../../execution-span';
import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { allWrites, TransactionRunner } from '@app/database';
import { jobId, JobProducer } from '@app/queues';
import { ExecutionEntity } from '../../../entities/execution.entity';
import { ExecuteCommand, ExecuteRejected, ExecuteResult } from '../../../execution.types';
import { ExecutionsRepository } from '../../../executions.repository';
import { IdempotencyKeysRepository, IdempotencyRace } from '../../../idempotency-keys.repository';
import { newExecution, runClaimUntil } from '../../../execution-factory';
import { Admitted, AdmitExecution } from '../admit-execution/admit-execution.usecase';
import { ChargeExecution } from '../../run/charge-execution/charge-execution.usecase';
import { RecordFailedRun } from '../../run/record-failed-run/record-failed-run.usecase';
import { RunAgent } from '../../run/run-agent/run-agent.usecase';

const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

/**
 * POST /execute (resolutions §2, §4): admit, run, charge. A sync request without an idempotency
 * key writes nothing before the agent answers (its nonce is claimed, so no replay reaches the
 * agent; the unique index on payments decides at commit). Async requests, and sync ones with a
 * key (which a concurrent duplicate must find), are written first: the reservation, the
 * execution, the key, in one transaction; async ones are queued, sync ones run at once, created
 * already claimed by this request.
 */
@Injectable()
export class Execute {
  constructor(
    private readonly admit: AdmitExecution,
    private readonly runAgent: RunAgent,
    private readonly recordFailure: RecordFailedRun,
    private readonly charge: ChargeExecution,
    private readonly repo: ExecutionsRepository,
    private readonly keys: IdempotencyKeysRepository,
    private readonly jobs: JobProducer,
    private readonly tx: TransactionRunner,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** One span for the request's execution: admission, the agent call and the charge are its children. */
  execute(cmd: ExecuteCommand): Promise<ExecuteResult> {
    return executionSpan(cmd, () => this.executeTraced(cmd));
  }

  private async executeTraced(cmd: ExecuteCommand): Promise<ExecuteResult> {
    const admitted = await inSpan('agora.execute.admit', {}, () => this.admit.execute(cmd));
    if (admitted.kind === 'replayed')
      return { execution: admitted.execution, settlement: null, replayed: true, limits: admitted.limits };
    const { limits, funding, idempotencyKey } = admitted;
    try {
      if (!cmd.async && !idempotencyKey) return { ...(await this.runFresh(cmd, admitted)), replayed: false, limits };
      const execution = this.executionOf(
        cmd,
        admitted,
        cmd.async ? null : runClaimUntil(this.clock.nowMs(), this.config),
      );
      try {
        await this.tx.pipelined((sql) =>
          allWrites([
            funding.reserve(sql, execution.id),
            this.repo.insert(sql, execution),
            idempotencyKey
              ? this.keys.claim(sql, {
                  payer: execution.payer,
                  key: idempotencyKey,
                  fingerprint: admitted.fingerprint,
                  executionId: execution.id,
                  expiresAt: new Date(this.clock.nowMs() + IDEMPOTENCY_TTL_MS),
                  now: this.clock.now(),
                })
              : Promise.resolve(),
          ]),
        );
      } catch (err) {
        // Not reserved after all (a used nonce excepted): the claim goes back.
        funding.giveBack(err);
        if (!(err instanceof IdempotencyRace)) throw err;
        const prior = await this.admit.idempotent(funding.payer, idempotencyKey!, admitted.fingerprint);
        return { execution: prior!, settlement: null, replayed: true, limits };
      }
      if (cmd.async) {
        await this.jobs.wake(
          'execution.run',
          { executionId: execution.id },
          { jobId: jobId('execution.run', execution.id, this.clock.nowMs()) },
        );
        return { execution, settlement: null, replayed: false, limits };
      }
      const { agent, capability } = admitted.target;
      const run = await this.runAgent.execute(execution, {
        agentId: agent.id,
        endpoint: agent.endpoints.execution,
        outputSchema: capability.outputSchema,
      });
      const outcome = run.ok
        ? await this.charge.execute({
            state: 'pending',
            execution,
            funding,
            completion: run.completion,
            reputation: agent.reputationScore,
          })
        : { execution: await this.recordFailure.execute(execution, run.failure, { funding }), settlement: null };
      return { ...outcome, replayed: false, limits };
    } catch (err) {
      throw new ExecuteRejected(err, limits);
    }
  }

  /**
   * Sync, no idempotency key: the agent first, then one transaction records the payment, the
   * execution in its final state and (settled inside Postgres) the whole charge. A crash before
   * that commit leaves nothing: no charge, no answer, the authorization unused.
   */
  private async runFresh(cmd: ExecuteCommand, admitted: Admitted) {
    const { funding, target } = admitted;
    const execution = this.executionOf(cmd, admitted, null);
    try {
      const run = await this.runAgent.execute(execution, {
        agentId: target.agent.id,
        endpoint: target.agent.endpoints.execution,
        outputSchema: target.capability.outputSchema,
      });
      if (!run.ok)
        return {
          execution: await this.recordFailure.execute(execution, run.failure, { funding, fresh: true }),
          settlement: null,
        };
      return await this.charge.execute({
        state: 'fresh',
        execution,
        funding,
        completion: run.completion,
        reputation: target.agent.reputationScore,
      });
    } catch (err) {
      // Nothing was recorded: the authorization stays unused and may be presented again.
      funding.giveBack(err);
      throw err;
    }
  }

  private executionOf(cmd: ExecuteCommand, a: Admitted, lockedUntil: Date | null): ExecutionEntity {
    return newExecution({
      agentId: a.target.agent.id,
      capabilityId: a.target.capability.capabilityId,
      payer: a.funding.payer,
      input: cmd.input,
      price: a.price,
      paymentId: a.funding.id,
      headerHash: a.funding.proofHash,
      isAsync: cmd.async,
      callbackUrl: cmd.callbackUrl ?? null,
      lockedUntil,
      route: cmd.route,
    });
  }
}
