import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { allWrites, PG_NOT_CLAIMED, pgErrorCode, TransactionRunner } from '@app/database';
import { Accounts, LedgerBoundsError, LedgerService, transfer } from '@app/ledger';
import { startApi, ApiHarness } from '../support/api-harness';
import { waitFor } from '../support/processes';

/** TransactionRunner.pipelined: statements issued together, COMMIT optionally sent with them. */
describe('pipelined transactions (integration)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let tx: TransactionRunner;
  let ledger: LedgerService;

  beforeAll(async () => {
    api = await startApi();
    ds = api.app.get(DataSource);
    tx = api.app.get(TransactionRunner);
    ledger = api.app.get(LedgerService);
    await ds.query(`CREATE TABLE pipeline_probe (id text PRIMARY KEY, n int NOT NULL DEFAULT 0)`);
  });
  afterAll(async () => {
    await api.close();
  });

  const rows = async (prefix: string) =>
    (await ds.query(`SELECT id FROM pipeline_probe WHERE id LIKE $1 ORDER BY id`, [`${prefix}%`])).map(
      (r: { id: string }) => r.id,
    );

  describe('statements issued together', () => {
    it('commits every statement issued together, in issue order', async () => {
      const p = randomUUID();
      const out = await tx.pipelined((sql) =>
        allWrites([
          sql.query(`INSERT INTO pipeline_probe (id) VALUES ($1) RETURNING id`, [`${p}-a`]),
          // Sees the row the statement before it inserted: they run in order, in one transaction.
          sql.query(
            `INSERT INTO pipeline_probe (id, n) SELECT $1, count(*) FROM pipeline_probe WHERE id = $2 RETURNING n`,
            [`${p}-b`, `${p}-a`],
          ),
        ]),
      );
      expect(out).toEqual([[{ id: `${p}-a` }], [{ n: 1 }]]);
      expect(await rows(p)).toEqual([`${p}-a`, `${p}-b`]);
    });

    it('rolls back everything when one statement fails, and reports that failure', async () => {
      const p = randomUUID();
      await ds.query(`INSERT INTO pipeline_probe (id) VALUES ($1)`, [`${p}-taken`]);
      const attempt = tx.pipelined((sql) =>
        allWrites([
          sql.query(`INSERT INTO pipeline_probe (id) VALUES ($1)`, [`${p}-new`]),
          sql.query(`INSERT INTO pipeline_probe (id) VALUES ($1)`, [`${p}-taken`]),
          sql.query(`INSERT INTO pipeline_probe (id) VALUES ($1)`, [`${p}-after`]),
        ]),
      );
      await expect(attempt).rejects.toMatchObject({ code: '23505' });
      expect(await rows(p)).toEqual([`${p}-taken`]);
    });

    it('reports the statement that aborted the transaction, not those after it, when its error is mapped in async steps', async () => {
      const p = randomUUID();
      await ds.query(`INSERT INTO pipeline_probe (id) VALUES ($1)`, [`${p}-taken`]);
      class Mapped extends Error {}
      // The failing statement's error is turned into another one a few promise steps later;
      // the statements behind it fail at once with "current transaction is aborted" (25P02).
      const mapped = async (q: Promise<unknown>) => {
        try {
          await q;
        } catch (err) {
          await Promise.resolve();
          throw pgErrorCode(err) === '23505' ? new Mapped('taken') : err;
        }
      };
      const attempt = tx.pipelined((sql) =>
        allWrites([
          mapped(sql.query(`INSERT INTO pipeline_probe (id) VALUES ($1)`, [`${p}-taken`])),
          sql.query(`INSERT INTO pipeline_probe (id) VALUES ($1)`, [`${p}-after`]),
          sql.query(`INSERT INTO pipeline_probe (id) VALUES ($1)`, [`${p}-later`]),
        ]),
      );
      await expect(attempt).rejects.toBeInstanceOf(Mapped);
      expect(await rows(p)).toEqual([`${p}-taken`]);
    });

    it('aborts on a lost claim (claimed() raises AG001) and writes nothing', async () => {
      const p = randomUUID();
      const attempt = tx.pipelined((sql) =>
        allWrites([
          sql.query(`INSERT INTO pipeline_probe (id) VALUES ($1)`, [`${p}-x`]),
          sql.query(
            `WITH c AS (UPDATE pipeline_probe SET n = 1 WHERE id = $1 RETURNING 1) SELECT claimed(count(*), 'probe') FROM c`,
            [`${p}-missing`],
          ),
        ]),
      );
      const err = await attempt.catch((e: unknown) => e);
      expect(pgErrorCode(err)).toBe(PG_NOT_CLAIMED);
      expect(await rows(p)).toEqual([]);
    });

    it('rolls back when work throws, and a ledger bounds error stays a LedgerBoundsError', async () => {
      const agent = randomUUID();
      const attempt = tx.pipelined((sql) =>
        ledger.post(sql, {
          code: 'test.overdraw',
          refId: randomUUID(),
          legs: transfer(Accounts.agentAvailable(agent), Accounts.platformRevenue(), 5n),
        }),
      );
      await expect(attempt).rejects.toBeInstanceOf(LedgerBoundsError);
      expect(await ledger.balance(ds.manager, Accounts.agentAvailable(agent).code)).toBe(0n);
    });
  });

  it('rolls back statements that succeeded when a check in JavaScript fails (nothing committed before work is done)', async () => {
    const p = randomUUID();
    const attempt = tx.pipelined(async (sql) => {
      const [rows] = await allWrites([
        sql.query<{ id: string }[]>(`INSERT INTO pipeline_probe (id) VALUES ($1) RETURNING id`, [`${p}-written`]),
        Promise.reject(new Error('a check failed')),
      ]);
      return rows;
    });
    await expect(attempt).rejects.toThrow('a check failed');
    expect(await rows(p)).toEqual([]);
  });

  it('refuses a statement issued after the transaction ended', async () => {
    let late: Promise<unknown> | undefined;
    await tx.pipelined(async (sql) => {
      await sql.query(`SELECT 1`);
      setImmediate(() => (late = sql.query(`SELECT 1`).catch((err: Error) => err)));
    });
    await waitFor(async () => late !== undefined, 'the late statement sent');
    expect(await late).toEqual(
      expect.objectContaining({ message: expect.stringMatching(/after the transaction ended/) }),
    );
  });

  describe('one round trip (COMMIT sent with the writes)', () => {
    it('commits every statement and answers each outcome', async () => {
      const p = randomUUID();
      const [a, b] = await tx.oneTrip((sql) => [
        sql.query(`INSERT INTO pipeline_probe (id) VALUES ($1) RETURNING id`, [`${p}-a`]),
        sql.query(
          `INSERT INTO pipeline_probe (id, n) SELECT $1, count(*) FROM pipeline_probe WHERE id = $2 RETURNING n`,
          [`${p}-b`, `${p}-a`],
        ),
      ]);
      expect(a).toEqual({ status: 'fulfilled', value: [{ id: `${p}-a` }] });
      expect(b).toEqual({ status: 'fulfilled', value: [{ n: 1 }] });
      expect(await rows(p)).toEqual([`${p}-a`, `${p}-b`]);
    });

    it('rolls back when a statement fails (a lost claim) and answers which one', async () => {
      const p = randomUUID();
      const [first, claim, after] = await tx.oneTrip((sql) => [
        sql.query(`INSERT INTO pipeline_probe (id) VALUES ($1)`, [`${p}-x`]),
        sql.query(
          `WITH c AS (UPDATE pipeline_probe SET n = 1 WHERE id = $1 RETURNING 1) SELECT claimed(count(*), 'probe') FROM c`,
          [`${p}-missing`],
        ),
        sql.query(`INSERT INTO pipeline_probe (id) VALUES ($1)`, [`${p}-y`]),
      ]);
      expect(first.status).toBe('fulfilled');
      expect(claim.status === 'rejected' && pgErrorCode(claim.reason)).toBe(PG_NOT_CLAIMED);
      expect(after.status).toBe('rejected');
      expect(await rows(p)).toEqual([]);
    });

    it('rolls back, not commits, when a check in JavaScript fails before its statement leaves, even inside composed writes', async () => {
      const p = randomUUID();
      // A write method that checks after a few awaits of its own, then would have sent its statement.
      const checkThenWrite = async (): Promise<void> => {
        await Promise.resolve();
        await Promise.resolve();
        throw new Error('agent fee exceeds what was authorized');
      };
      const composed = async (sql: Parameters<Parameters<TransactionRunner['oneTrip']>[0]>[0]) => {
        await allWrites([sql.query(`INSERT INTO pipeline_probe (id) VALUES ($1)`, [`${p}-inner`]), checkThenWrite()]);
      };
      await expect(
        tx.oneTrip((sql) => [sql.query(`INSERT INTO pipeline_probe (id) VALUES ($1)`, [`${p}-outer`]), composed(sql)]),
      ).rejects.toThrow('agent fee exceeds');
      expect(await rows(p)).toEqual([]);
    });

    it('rolls back when issuing throws', async () => {
      const p = randomUUID();
      await expect(
        tx.oneTrip((sql) => {
          void sql.query(`INSERT INTO pipeline_probe (id) VALUES ($1)`, [`${p}-x`]).catch(() => undefined);
          throw new Error('bad value');
        }),
      ).rejects.toThrow('bad value');
      expect(await rows(p)).toEqual([]);
    });

    it('refuses a statement sent after COMMIT left', async () => {
      let late: Promise<unknown> | undefined;
      await tx.oneTrip((sql) => {
        const slow = sql.query(`SELECT pg_sleep(0.02)`);
        // Sent once the first answer is in, i.e. long after COMMIT left.
        void slow.then(() => (late = sql.query(`SELECT 1`).catch((err: Error) => err)));
        return [slow];
      });
      await waitFor(async () => late !== undefined, 'the late statement sent');
      expect(await late).toEqual(expect.objectContaining({ message: expect.stringMatching(/after COMMIT was sent/) }));
    });
  });
});
