import type { Queryable } from '@app/database';
import type { Funding } from '@app/payments';
import type { ExecutionEntity } from '../../../entities/execution.entity';
import type { RunCompletion } from '../../../executions.repository';

/**
 * How the execution stands when it is charged: `fresh`, a run nothing was written for yet (sync;
 * its idempotency key, if any, is written with it); `pending`, a stored execution this process claimed and ran; `completed`,
 * a stored execution whose settlement or charge did not happen yet (retry job, sweeper).
 */
export type ChargeRequest =
  | {
      state: 'fresh' | 'pending';
      execution: ExecutionEntity;
      funding: Funding;
      completion: RunCompletion;
      reputation?: number;
      /** A fresh run's idempotency key: taken in the first transaction that writes the execution. */
      keyClaim?: (sql: Queryable) => Promise<unknown>;
    }
  | { state: 'completed'; execution: ExecutionEntity; funding: Funding; reputation?: number };
