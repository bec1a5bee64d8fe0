import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Db } from '../../../../server/db/connection';

let db: Db;
beforeAll(async () => {
  db = await openPglite(undefined);
  await db.query('CREATE TABLE t (n int)');
  // PGlite's start takes seconds on a busy machine.
}, 60_000);
afterAll(() => db.close());

describe('db.tx afterCommit', () => {
  it('runs its hooks once committed, in order, seeing the commit, before tx resolves', async () => {
    const seen: string[] = [];
    const result = await db.tx(async (q) => {
      await q.query('INSERT INTO t VALUES (1)');
      q.afterCommit(async () => {
        seen.push(`first ${(await db.query<{ n: number }>('SELECT count(*)::int AS n FROM t')).rows[0].n}`);
      });
      q.afterCommit(async () => void seen.push('second'));
      seen.push('body');
      return 'done';
    });
    expect(result).toBe('done');
    expect(seen).toEqual(['body', 'first 1', 'second']);
  });

  it('never runs them when the transaction rolls back', async () => {
    let ran = false;
    await expect(
      db.tx(async (q) => {
        await q.query('INSERT INTO t VALUES (2)');
        q.afterCommit(async () => void (ran = true));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(ran).toBe(false);
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE n = 2')).rows[0].n).toBe(0);
  });
});
