import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { PG_NOT_CLAIMED, pgErrorCode, TransactionRunner } from '@app/database';
import { JobProducer } from '@app/queues';
import { ChainBudget, ChainEnd } from '../../chain-budget';
import { wakeFinisher } from '../../chain-end';
import { ChainsRepository } from '../../chains.repository';

/**
 * A chained call whose process died between its reservation and its end (the caller saw the
 * connection drop; the execution's row was never written): once it is older than the execution
 * timeout and a minute, the worker (`chain.release-node`, found by the sweeper) returns its
 * reservation to the budget and marks the node `refunded`, once; a call that ends meanwhile
 * claims the node first and this does nothing.
 */
@Injectable()
export class ReleaseStaleNode {
  constructor(
    private readonly repo: ChainsRepository,
    private readonly budget: ChainBudget,
    private readonly jobs: JobProducer,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(executionId: string): Promise<boolean> {
    const node = await this.repo.node(executionId);
    if (!node || node.status !== 'running') return false;
    const now = this.clock.now();
    let end: ChainEnd;
    try {
      end = await this.tx.pipelined((sql) =>
        this.budget.release(sql, node, { executionTimeMs: now.getTime() - node.startedAt.getTime(), completedAt: now }),
      );
    } catch (err) {
      if (pgErrorCode(err) === PG_NOT_CLAIMED) return false;
      throw err;
    }
    await wakeFinisher(this.jobs, node.chainId, end, this.clock.nowMs());
    return true;
  }
}
