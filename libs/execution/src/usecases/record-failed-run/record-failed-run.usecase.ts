import { Injectable } from '@nestjs/common';
import { allWrites, Queryable, TransactionRunner } from '@app/database';
import { OutboxService } from '@app/outbox';
import { DeliveryService } from '@app/webhooks';
import { ExecutionEntity } from '../../entities/execution.entity';
import { ExecutionsRepository, RunFailure } from '../../executions.repository';
import { Funding } from '../../funding/funding';

/**
 * Records a failed or timed-out run: nothing is settled or charged, the authorization stays
 * reserved for a retry. One transaction: the execution's state (a run first written now also
 * writes its reservation and its row), the event `execution.failed`, the callback's first
 * delivery; then the delivery is woken.
 */
@Injectable()
export class RecordFailedRun {
  constructor(
    private readonly repo: ExecutionsRepository,
    private readonly outbox: OutboxService,
    private readonly deliveries: DeliveryService,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(execution: ExecutionEntity, failure: RunFailure, fresh: { funding: Funding } | null): Promise<ExecutionEntity> {
    Object.assign(execution, { status: failure.status, agentError: failure.error, executionTimeMs: failure.timeMs, completedAt: failure.completedAt, lockedUntil: null });
    const callback = await this.tx.pipelined(async (sql) => {
      if (fresh) {
        const [, , scheduled] = await allWrites([fresh.funding.reserve(sql, execution.id), this.repo.insert(sql, execution), this.events(sql, execution, failure)]);
        return scheduled;
      }
      return (await this.repo.recordFailure(sql, execution.id, failure)) ? this.events(sql, execution, failure) : null;
    });
    if (callback) await this.deliveries.wake(callback, 0);
    return execution;
  }

  /** The event and the callback's first delivery (its id, if any). */
  private events(sql: Queryable, e: ExecutionEntity, f: RunFailure): Promise<string | null> {
    return allWrites([
      this.outbox.record(sql, 'execution.failed', e.agentId, { requestId: e.id, agentId: e.agentId, capabilityId: e.capabilityId, error: f.error }),
      e.callbackUrl ? this.deliveries.scheduleCallback(sql, { executionId: e.id, url: e.callbackUrl, body: { requestId: e.id, status: f.status, error: f.error } }) : Promise.resolve(null),
    ]).then(([, callback]) => callback);
  }
}
