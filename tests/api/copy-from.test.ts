import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyField } from '../../server/db/bulk';
import { openDb, type Db } from '../../server/db/connection';

// Queryable.copyFrom (server/db/connection.ts), which imports, intakes and conversions insert their
// leads through, on the database the api tests run on: PGlite in memory, or TEST_DATABASE_URL's
// PostgreSQL, where it is a copy-in query of its own that reads its lines as it sends them.

let db: Db;
beforeAll(async () => {
  db = await openDb({ databaseUrl: process.env.TEST_DATABASE_URL });
  await db.exec('DROP TABLE IF EXISTS copy_from_test; CREATE TABLE copy_from_test (id int8 PRIMARY KEY, note text, data jsonb)');
}, 60_000);
afterAll(async () => {
  await db?.exec('DROP TABLE IF EXISTS copy_from_test');
  await db?.close();
});

const ROWS = 150_000;
const target = 'copy_from_test (id, note, data)';
const count = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM copy_from_test')).rows[0]!.n;

describe('copyFrom, COPY … FROM STDIN', () => {
  it('copies every line, values with backslashes, tabs, line breaks and quotes intact', async () => {
    const note = 'a\\b\tc\nd\re "f" é 字';
    const data = { nom: 'O\'Neil "Jo"', ligne: 'x\ty\\z' };
    expect(await db.copyFrom(target, [`1\t${copyField(note)}\t${copyField(data)}`, `2\t${copyField(null)}\t${copyField({})}`])).toBe(2);
    const { rows } = await db.query<{ id: number; note: string | null; data: unknown }>('SELECT id, note, data FROM copy_from_test ORDER BY id');
    expect(rows).toEqual([
      { id: 1, note, data },
      { id: 2, note: null, data: {} },
    ]);
    await db.query('DELETE FROM copy_from_test');
  });

  it('reads the lines as it sends them: on PostgreSQL other work goes on while a long copy is built', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const seen: number[] = [];
    function* lines() {
      seen.push(ticks);
      for (let i = 1; i <= ROWS; i++) yield `${i}\tligne ${i}\t{"i": ${i}}`;
      seen.push(ticks);
    }
    try {
      expect(await db.copyFrom(target, lines())).toBe(ROWS);
    } finally {
      clearInterval(timer);
    }
    expect(await count()).toBe(ROWS);
    // The lines go in pieces of about 1 MB, the event loop running between two (PGlite takes them whole).
    if (db.kind === 'pg') expect(seen[1]! - seen[0]!).toBeGreaterThan(0);
    await db.query('DELETE FROM copy_from_test');
  });

  it('copies nothing when building the lines throws midway, and the connection goes on', async () => {
    function* lines() {
      for (let i = 1; i <= ROWS; i++) {
        if (i === ROWS / 2) throw new Error('ligne illisible');
        yield `${i}\tligne\t{}`;
      }
    }
    await expect(db.copyFrom(target, lines())).rejects.toThrow('ligne illisible');
    expect(await count()).toBe(0);
    await expect(
      db.tx(async (q) => {
        await q.query("INSERT INTO copy_from_test VALUES (0, 'avant', '{}')");
        await q.copyFrom(target, lines());
      }),
    ).rejects.toThrow('ligne illisible');
    expect(await count()).toBe(0);
    expect((await Promise.all(Array.from({ length: 12 }, () => db.query<{ n: number }>('SELECT 1 AS n')))).map((r) => r.rows[0]!.n)).toEqual(Array(12).fill(1));
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('stops building the lines when its connection is lost, and fails', async () => {
    const LINES = 2_000_000;
    let built = 0;
    await expect(
      db.tx(async (q) => {
        const pid = (await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
        function* lines() {
          for (let i = 1; i <= LINES; i++) {
            // About 5 MB in: the server ends this connection from another one.
            if (++built === 250_000) void db.query('SELECT pg_terminate_backend($1)', [pid]);
            yield `${i}\tligne\t{}`;
          }
        }
        await q.copyFrom(target, lines());
      }),
    ).rejects.toThrow();
    const atFailure = built;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(built).toBe(atFailure);
    expect(built).toBeLessThan(LINES);
    expect(await count()).toBe(0);
  });

  it('fails with the database’s error on a line it refuses, and copies nothing', async () => {
    await expect(db.copyFrom(target, ['1\tun\t{}', '1\tdeux\t{}'])).rejects.toMatchObject({ code: '23505' });
    await expect(db.copyFrom(target, ['3\ttrois\tpas du json'])).rejects.toMatchObject({ code: '22P02' });
    expect(await count()).toBe(0);
  });
});
