import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { IdempotencyKeysRepository } from '../../../idempotency-keys.repository';

/** Keys deleted per statement: short transactions, the index walked in order. */
const BATCH = 5_000;

/**
 * The worker's `idempotency-keys.prune` (enqueued by the sweeper every tick): deletes the keys past
 * their expiry (an expired key is never answered from: a repeat with it starts a new execution),
 * in batches until none is left, so the table holds only live keys however many requests came.
 */
@Injectable()
export class PruneIdempotencyKeys {
  constructor(
    private readonly repo: IdempotencyKeysRepository,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<{ deleted: number }> {
    const now = this.clock.now();
    let deleted = 0;
    for (;;) {
      const n = await this.repo.pruneExpired(now, BATCH);
      deleted += n;
      if (n < BATCH) return { deleted };
    }
  }
}
