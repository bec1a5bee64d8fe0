import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Db } from '../../../../server/db/connection';
import { copyRows, reserveIds } from '../../../../server/db/bulk';

let db: Db;
beforeAll(async () => {
  db = await openPglite(undefined);
  await db.query('CREATE TABLE t (id serial PRIMARY KEY, label text, tags text[], data jsonb)');
  // PGlite's start takes seconds on a busy machine.
}, 60_000);
afterAll(() => db.close());

describe('copyRows', () => {
  it('copies every value as it was: nulls, empty strings, backslashes, tabs, line breaks, quotes, arrays and JSON', async () => {
    const tricky = 'a\\b\tc\nd\re "f" ;g \\N';
    const rows = [
      [1, tricky, ['x', 'y "z"', 'back\\slash'], { note: tricky, n: 2 }],
      [2, '', [], {}],
      [3, null, null, null],
      [4, '\\N', ['\t'], { s: '\\N' }],
    ];
    expect(await copyRows(db, 't', ['id', 'label', 'tags', 'data'], rows)).toBe(4);
    const { rows: back } = await db.query('SELECT id, label, tags, data FROM t ORDER BY id');
    expect(back).toEqual(rows.map(([id, label, tags, data]) => ({ id, label, tags, data })));
  });
});

describe('reserveIds', () => {
  it('reserves n consecutive ids of the serial column, in order', async () => {
    await db.query("SELECT setval(pg_get_serial_sequence('t', 'id'), 10)");
    expect(await reserveIds(db, 't', 5)).toEqual([11, 12, 13, 14, 15]);
    expect(await reserveIds(db, 't', 0)).toEqual([]);
  });
});
