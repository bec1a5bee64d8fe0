import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Db } from '../../../../server/db/connection';

let db: Db;
beforeAll(async () => {
  db = await openPglite(undefined);
  await db.exec("CREATE TABLE t (id int8 PRIMARY KEY, price numeric, day date, name text CONSTRAINT named CHECK (name <> ''))");
  // PGlite's start takes seconds on a busy machine.
}, 60_000);
afterAll(() => db.close());

describe('openPglite, PGlite on its worker thread', () => {
  it('leaves this thread free while a statement runs', async () => {
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(performance.now()), 5);
    const started = performance.now();
    await db.query('SELECT count(*) FROM generate_series(1, 1000000) a, LATERAL (SELECT md5(a::text)) m');
    const took = performance.now() - started;
    clearInterval(timer);
    const gaps = ticks.map((t, i) => t - (ticks[i - 1] ?? started));
    expect(took).toBeGreaterThan(200);
    // On this thread, the timer would not fire until the statement was done.
    expect(Math.max(...gaps)).toBeLessThan(took / 2);
  });

  it('parses int8 and numeric as numbers, dates as strings', async () => {
    await db.query(`INSERT INTO t VALUES (1, 12.5, '2026-11-28', 'a')`);
    expect((await db.query('SELECT id, price, day FROM t')).rows).toEqual([{ id: 1, price: 12.5, day: '2026-11-28' }]);
  });

  it('keeps the fields of PostgreSQL errors that callers read', async () => {
    const unique = await db.query(`INSERT INTO t VALUES (1, 0, NULL, 'b')`).catch((err: unknown) => err);
    expect(unique).toBeInstanceOf(Error);
    expect(unique).toMatchObject({ code: '23505', constraint: 't_pkey', table: 't', severity: 'ERROR', detail: 'Key (id)=(1) already exists.' });
    const check = await db.query(`INSERT INTO t VALUES (2, 0, NULL, '')`).catch((err: unknown) => err);
    expect(check).toMatchObject({ code: '23514', constraint: 'named', message: expect.stringContaining('"named"') });
    const syntax = await db.query('SELEC 1').catch((err: unknown) => err);
    expect(syntax).toMatchObject({ code: '42601', position: '1' });
  });

  it('runs a transaction whole before any other statement, and rolls back when it throws', async () => {
    const order: string[] = [];
    let outside: Promise<unknown> | undefined;
    await db.tx(async (q) => {
      await q.query(`INSERT INTO t VALUES (3, 1, NULL, 'c')`);
      outside = db.query<{ n: number }>('SELECT count(*) AS n FROM t WHERE id = 3').then(({ rows }) => order.push(`outside saw ${rows[0].n}`));
      await q.copyFrom('t (id, price, day, name)', ['4\t2\t2026-01-01\td', '5\t3\t\\N\te']);
      order.push('tx done');
    });
    await outside;
    expect(order).toEqual(['tx done', 'outside saw 1']);
    await expect(
      db.tx(async (q) => {
        await q.query(`INSERT INTO t VALUES (6, 1, NULL, 'f')`);
        throw new Error('refusé');
      }),
    ).rejects.toThrow('refusé');
    expect((await db.exec<{ ids: number[] }>('SELECT 1; SELECT array_agg(id ORDER BY id) AS ids FROM t'))[0].ids).toEqual([1, 3, 4, 5]);
  });
});
