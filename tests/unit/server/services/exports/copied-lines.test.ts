import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Db } from '../../../../../server/db/connection';
import { copiedLines } from '../../../../../server/services/exports/copied-lines';

// copied-lines.ts reads the binary COPY of a batch of csv lines; PostgreSQL's output reaches it in
// pieces cut where the connection likes, so the real output of such a COPY is fed here in pieces
// of every size, lines split anywhere, multi-byte characters included.

let db: Db;
/** Lines with CRLF, quotes, a line break in a cell, a backslash, accents and an emoji: what COPY's text or csv format would change. */
const lines = ['1;2026-11-29 10:00:00;Dupont;"a;b"\r\n', '7;x;"deux\r\nlignes";C:\\dossier\r\n', '12;Éloïse 😀;;\r\n', `40;${'long '.repeat(20_000)}\r\n`];
const ids = [1, 7, 12, 40];
const literal = (s: string) => `E'${s.replace(/\\/g, '\\\\').replace(/'/g, "''").replace(/\r/g, '\\r').replace(/\n/g, '\\n')}'`;
const batch = `SELECT count(*), max(id), string_agg(line, '' ORDER BY id) FROM (VALUES ${lines.map((l, i) => `(${ids[i]}::int8, ${literal(l)})`).join(', ')}) v (id, line)`;

/** The output of `COPY (query) TO STDOUT (FORMAT binary)`, whole. */
async function copyOf(query: string) {
  const pieces: Buffer[] = [];
  await db.copyTo(query, (piece) => void pieces.push(Buffer.from(piece)));
  return Buffer.concat(pieces);
}

/** What copiedLines answers of `copy` cut into pieces of `size` bytes, the lines joined. */
function fed(copy: Buffer, size: number) {
  const copied = copiedLines();
  for (let at = 0; at < copy.length; at += size) copied.write(copy.subarray(at, at + size));
  const { lines: bytes, ...rest } = copied.end();
  return { ...rest, text: Buffer.concat(bytes).toString('utf8') };
}

beforeAll(async () => {
  db = await openPglite(undefined);
}, 60_000);
afterAll(() => db.close());

describe('copiedLines, a batch of csv lines out of a binary COPY', () => {
  it('keeps the lines as they are, however the COPY is cut, with the count and the last id', async () => {
    const copy = await copyOf(batch);
    for (const size of [1, 2, 3, 5, 7, 18, 19, 20, 64, 1000, 65_536, copy.length]) {
      expect(fed(copy, size)).toEqual({ count: 4, last: 40, text: lines.join('') });
    }
  });

  it('keeps its own copy of each piece, which the connection reuses', async () => {
    const copy = await copyOf(batch);
    const copied = copiedLines();
    const piece = Buffer.alloc(4096);
    for (let at = 0; at < copy.length; at += piece.length) {
      const n = copy.copy(piece, 0, at, at + piece.length);
      copied.write(piece.subarray(0, n));
      piece.fill(0);
    }
    expect(Buffer.concat(copied.end().lines).toString('utf8')).toBe(lines.join(''));
  });

  it('answers an empty batch with no line', async () => {
    expect(fed(await copyOf(`${batch} WHERE false`), 7)).toEqual({ count: 0, last: null, text: '' });
  });

  it('refuses what is not such a COPY, or one cut short', async () => {
    const copy = await copyOf(batch);
    expect(() => copiedLines().write(Buffer.from('1;2026-11-29 10:00:00;Dupont;Jean\r\n'))).toThrow('COPY binaire inattendu');
    expect(() => fed(copy.subarray(0, copy.length - 2), 100)).toThrow('fin manquante');
    expect(() => fed(Buffer.concat([copy, Buffer.from([0])]), 100)).toThrow('données après la fin');
    const twoColumns = await copyOf('SELECT 1::int8, 2::int8');
    expect(() => fed(twoColumns, 100)).toThrow('2 colonnes');
  });
});
