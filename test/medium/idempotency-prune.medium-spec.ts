import { randomBytes } from 'node:crypto';
import { PruneIdempotencyKeys } from '@app/execution';
import { SweepRegistry } from '@app/queues';
import { Domain, startDomain } from '../support/medium';

/**
 * Issue 16, defect 8: idempotency keys are pruned on schedule. The sweeper enqueues the prune every
 * tick; the prune deletes every expired key (in batches) and keeps the live ones.
 */
describe('idempotency keys are pruned (medium)', () => {
  let domain: Domain;

  beforeAll(async () => {
    domain = await startDomain();
  });
  afterAll(async () => {
    await domain.close();
  });

  it('deletes every expired key, in batches, and keeps the live ones; the sweeper asks for it every tick', async () => {
    const insert = (n: number, expiresIn: string) =>
      domain.ds.query(
        `INSERT INTO idempotency_keys (payer, key, fingerprint, execution_id, expires_at)
         SELECT '0x' || $2 || lpad(i::text, 10, '0'), 'k' || i, 'f', 'req_x' || i, now() + $3::interval FROM generate_series(1, $1) i`,
        [n, randomBytes(15).toString('hex'), expiresIn],
      );
    await insert(12_001, '-1 second'); // more than two batches
    await insert(7, '1 hour');
    expect(await domain.get(PruneIdempotencyKeys).execute()).toEqual({ deleted: 12_001 });
    const left = await domain.ds.query(
      `SELECT count(*)::int AS n, min(expires_at) > now() AS live FROM idempotency_keys`,
    );
    expect(left).toEqual([{ n: 7, live: true }]);
    expect(await domain.get(PruneIdempotencyKeys).execute()).toEqual({ deleted: 0 });
    const source = domain
      .get(SweepRegistry)
      .all()
      .find((s) => s.job === 'idempotency-keys.prune')!;
    expect(await source.due()).toEqual([{ id: 'expired', data: { requestedAt: expect.any(String) } }]);
  });
});
