import { CommitOutcomeUnknown, isTransientDatabaseError } from './connection-errors';

/** A pg error as the driver raises it: a message and, from the server, a SQLSTATE. */
const pgError = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe('CommitOutcomeUnknown.of (a failed COMMIT)', () => {
  it.each([
    ['a connection ended under it', pgError('Connection terminated unexpectedly')],
    ['a reset socket', pgError('read ECONNRESET', 'ECONNRESET')],
    ['a backend terminated', pgError('terminating connection due to administrator command', '57P01')],
  ])('is unknown when %s, and stays transient', (_what, err) => {
    const thrown = CommitOutcomeUnknown.of(err);
    expect(thrown).toBeInstanceOf(CommitOutcomeUnknown);
    expect((thrown as CommitOutcomeUnknown).cause).toBe(err);
    expect(isTransientDatabaseError(thrown)).toBe(true);
  });

  it.each([
    ['a serialization victim', pgError('could not serialize access', '40001')],
    ['a deadlock victim', pgError('deadlock detected', '40P01')],
    ['a deferred unique violation', pgError('duplicate key value violates unique constraint', '23505')],
  ])('is the error itself when Postgres decided a rollback: %s', (_what, err) => {
    expect(CommitOutcomeUnknown.of(err)).toBe(err);
  });
});
