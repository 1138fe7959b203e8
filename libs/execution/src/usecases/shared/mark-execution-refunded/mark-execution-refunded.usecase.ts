import { Injectable } from '@nestjs/common';
import { Queryable } from '@app/database';
import { ExecutionsRepository } from '../../../executions.repository';

/**
 * Inside the caller's transaction (a dispute's resolution): a completed execution whose whole
 * charge went back to its payer becomes `refunded` (resolutions §4). A partial refund (a split)
 * leaves it `completed`, as the unused part of a variable price does.
 */
@Injectable()
export class MarkExecutionRefunded {
  constructor(private readonly repo: ExecutionsRepository) {}

  execute(sql: Queryable, requestId: string): Promise<void> {
    return this.repo.markRefunded(sql, requestId);
  }
}
