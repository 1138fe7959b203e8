import { Metrics } from '@app/metrics';
import { Injectable } from '@nestjs/common';
import { allWrites, Queryable, TransactionRunner } from '@app/database';
import { OutboxService } from '@app/outbox';
import { PayerStanding, ReputationRecorder } from '@app/reputation';
import { DeliveryService } from '@app/webhooks';
import { ExecutionEntity } from '../../../entities/execution.entity';
import { ExecutionsRepository, RunFailure } from '../../../executions.repository';
import { Funding } from '@app/payments';
import { AppConfig } from '@app/config';
import { canonicalJson } from '@app/json-schema';
import { unchargedPayload } from '../../../uncharged-payload';

/**
 * Records a failed or timed-out run (the agent's reputation -2 when the call reached it and the agent did not refuse it): nothing is settled or charged; an x402 authorization stays
 * reserved for a retry, a chain node's reservation returns to the budget. Its payloads shrink to
 * what an uncharged run keeps (unchargedPayload: digests, a small input). One transaction: the
 * execution's state (a run first written now also writes its reservation and its row), what the
 * funding gives back, the event `execution.failed`, the callback's first delivery; then the
 * delivery is woken and the funding told.
 */
@Injectable()
export class RecordFailedRun {
  constructor(
    private readonly repo: ExecutionsRepository,
    private readonly outbox: OutboxService,
    private readonly deliveries: DeliveryService,
    private readonly tx: TransactionRunner,
    private readonly reputation: ReputationRecorder,
    private readonly metrics: Metrics,
    private readonly config: AppConfig,
    private readonly standing: PayerStanding,
  ) {}

  /**
   * `fresh`: nothing was written for this run yet (`keyClaim`: its idempotency key, taken in the same
   * transaction). `funding`: what paid for it, when the caller holds it.
   */
  async execute(
    execution: ExecutionEntity,
    failure: RunFailure,
    opts: { funding?: Funding; fresh?: boolean; keyClaim?: (sql: Queryable) => Promise<unknown> } = {},
  ): Promise<ExecutionEntity> {
    Object.assign(execution, {
      status: failure.status,
      agentError: failure.error,
      executionTimeMs: failure.timeMs,
      completedAt: failure.completedAt,
      lockedUntil: null,
    });
    const kept = unchargedPayload(execution.input, execution.output, await this.inputKeepBytes(execution));
    Object.assign(execution, kept);
    const { funding } = opts;
    const giveBack = (sql: Queryable) =>
      funding
        ? funding.failWrites(sql, execution.id, { executionTimeMs: failure.timeMs, completedAt: failure.completedAt })
        : Promise.resolve();
    const recorded = await this.tx.pipelined(async (sql) => {
      if (opts.fresh && funding) {
        const [, , , scheduled] = await allWrites([
          opts.keyClaim ? opts.keyClaim(sql) : Promise.resolve(),
          funding.reserve(sql, execution.id),
          this.repo.insert(sql, execution),
          this.events(sql, execution, failure),
          giveBack(sql),
          this.penalty(sql, execution, failure, funding?.callingAgent),
        ]);
        return { callback: scheduled };
      }
      // Claimed first: a failure recorded by another run gives nothing back twice.
      if (!(await this.repo.recordFailure(sql, execution.id, failure, kept))) return null;
      const [callback] = await allWrites([
        this.events(sql, execution, failure),
        giveBack(sql),
        this.penalty(sql, execution, failure, funding?.callingAgent),
      ]);
      return { callback };
    });
    if (recorded) this.metrics.executions.inc({ outcome: failure.status, pricing: execution.pricingModel });
    if (recorded?.callback) await this.deliveries.wake(recorded.callback, 0);
    if (recorded && funding) await funding.afterEnd();
    return execution;
  }

  /**
   * -2 for a run that reached the agent and was not refused by it (a 4xx answer is the agent turning
   * a request down, not failing it) nor failed by the platform's own cap on an output for an input that
   * large (callerFilledCap), once an interval per payer, nothing for a price-0 run (reputation_apply).
   * Last: the agent's row is locked after everything else the failure locks, in the order a charge locks them.
   */

  /**
   * How much of its input a failed run keeps whole, for the contract's retry: any size for a payer with
   * money at stake (PayerStanding: paid agora at least FUNDED_PAYER_MIN_SPEND_MICRO; still bounded by
   * PAYLOAD_STORAGE_CAP_BYTES and UNCHARGED_PAYLOAD_RETENTION_HOURS), else UNCHARGED_INPUT_KEEP_BYTES:
   * a fresh wallet costs nothing, so its free failed runs store no more than that.
   */
  private async inputKeepBytes(e: ExecutionEntity): Promise<number> {
    const small = this.config.unchargedInputKeepBytes;
    if (e.input === null || Buffer.byteLength(canonicalJson(e.input), 'utf8') <= small) return small;
    return (await this.standing.funded(e.payer)) ? Number.MAX_SAFE_INTEGER : small;
  }

  private penalty(sql: Queryable, e: ExecutionEntity, f: RunFailure, calledBy?: string): Promise<number | null> {
    if (f.reachedAgent === false || f.refused === true || f.platformLimit === true) return Promise.resolve(null);
    const stake = e.authorizedAgentFee > e.agentFee ? e.authorizedAgentFee : e.agentFee;
    // A chain sub-call an agent made is that agent's doing (weighted model: its owner is the payer).
    return this.reputation.record(sql, e.agentId, 'execution.failed', e.id, { payer: e.payer, stake, calledBy });
  }

  /** The event and the callback's first delivery (its id, if any). */
  private events(sql: Queryable, e: ExecutionEntity, f: RunFailure): Promise<string | null> {
    return allWrites([
      this.outbox.record(sql, 'execution.failed', e.agentId, {
        requestId: e.id,
        agentId: e.agentId,
        capabilityId: e.capabilityId,
        error: f.error,
      }),
      e.callbackUrl
        ? this.deliveries.scheduleCallback(sql, {
            executionId: e.id,
            url: e.callbackUrl,
            body: { requestId: e.id, status: f.status, error: f.error },
          })
        : Promise.resolve(null),
    ]).then(([, callback]) => callback);
  }
}
