import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../server/db/connection';

// Queryable.copyTo (server/db/connection.ts), which the csv exports write their lines through, on
// the database the api tests run on: PGlite in memory, or TEST_DATABASE_URL's PostgreSQL, where it
// is a copy-out query of its own over node-postgres (one CopyData message per row).

let db: Db;
beforeAll(async () => {
  db = await openDb({ databaseUrl: process.env.TEST_DATABASE_URL });
}, 60_000);
afterAll(() => db?.close());

const ROWS = 200_000;
/** ROWS rows of an id and a line of about 100 bytes. */
const rows = `SELECT i::int8, repeat('x', 90) || i::text || E'\\r\\n' FROM generate_series(1, ${ROWS}) i`;
/** The binary COPY's bytes for `rows`: header, each row's fields and line, trailer. */
const expectedBytes = 19 + 2 + Array.from({ length: ROWS }, (_, i) => 2 + 4 + 8 + 4 + 90 + String(i + 1).length + 2).reduce((a, b) => a + b, 0);
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('copyTo, COPY … TO STDOUT', () => {
  it('gives the whole output; on PostgreSQL row by row, and reads nothing more while a write waits', async () => {
    let bytes = 0;
    let pieces = 0;
    let whileHeld: number | undefined;
    await db.copyTo(rows, (piece) => {
      bytes += piece.length;
      if (++pieces !== 1) return undefined;
      return pause(300).then(() => void (whileHeld = pieces));
    });
    expect(bytes).toBe(expectedBytes);
    if (db.kind === 'pg') {
      expect(pieces).toBeGreaterThan(ROWS);
      // What the connection had already received when it was paused: a socket read, not the 20 MB.
      expect(whileHeld).toBeLessThan(ROWS / 20);
    }
  });

  it('fails with the error of a write that throws or rejects mid-copy, and the connection goes on', async () => {
    for (const fail of [
      () => {
        throw new Error('disque plein');
      },
      () => Promise.reject(new Error('disque plein')),
    ]) {
      await db.tx(async (q) => {
        let pieces = 0;
        await expect(q.copyTo(rows, () => (++pieces === (db.kind === 'pg' ? 3 : 1) ? fail() : undefined))).rejects.toThrow('disque plein');
        expect((await q.query<{ n: number }>('SELECT 41 + 1 AS n')).rows).toEqual([{ n: 42 }]);
      });
    }
    expect((await Promise.all(Array.from({ length: 12 }, () => db.query<{ n: number }>('SELECT 1 AS n')))).map((r) => r.rows[0]!.n)).toEqual(Array(12).fill(1));
  });

  it('fails with the database’s error when the query fails midway, and the connection goes on', async () => {
    await expect(db.copyTo(`SELECT i::int8, (1 / (${ROWS / 2} - i))::text FROM generate_series(1, ${ROWS}) i`, () => undefined)).rejects.toMatchObject({
      code: '22012',
    });
    expect((await Promise.all(Array.from({ length: 12 }, () => db.query<{ n: number }>('SELECT 1 AS n')))).map((r) => r.rows[0]!.n)).toEqual(Array(12).fill(1));
  });
});
