import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../../../server/db/unavailable';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('knows a database going away, restarting or out of reach', () => {
    for (const err of [
      pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      pgError('57P01', 'terminating connection due to administrator command'),
      pgError('57P03', 'the database system is starting up'),
      pgError('08006', 'connection failure'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      // The server stopping: its pool is closed, and a job's unawaited statement meets it.
      new Error('Cannot use a pool after calling end on the pool'),
      Object.assign(new AggregateError([pgError('ECONNREFUSED'), pgError('ECONNREFUSED')]), { code: undefined }),
    ]) {
      expect(isDatabaseUnavailable(err), String(err)).toBe(true);
    }
  });

  it('leaves the faults of a request or of the code alone', () => {
    for (const err of [
      pgError('23505', 'duplicate key'),
      pgError('42P01', 'relation does not exist'),
      pgError('22P02'),
      new TypeError('x is undefined'),
      undefined,
      'text',
      new AggregateError([]),
    ]) {
      expect(isDatabaseUnavailable(err), String(err)).toBe(false);
    }
  });
});
