import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Db } from '../../../../../server/db/connection';
import { copiedLines } from '../../../../../server/services/exports/copied-lines';

// copied-lines.ts reads the binary COPY of a batch of csv lines; PostgreSQL's output reaches it in
// pieces cut where the connection likes, so the real output of such a COPY is fed here in pieces
// of every size, lines split anywhere, multi-byte characters included.

let db: Db;
let copy: Buffer;
/** Lines with CRLF, quotes, a line break in a cell, a backslash, accents and an emoji (what COPY's text or csv format would change), and one longer than a write to the file. */
const lines = ['1;2026-11-29 10:00:00;Dupont;"a;b"\r\n', '7;x;"deux\r\nlignes";C:\\dossier\r\n', '12;Éloïse 😀;;\r\n', `40;${'long '.repeat(120_000)}\r\n`];
const ids = [1, 7, 12, 40];

beforeAll(async () => {
  db = await openPglite(undefined);
  const values = lines.map((l, i) => `(${ids[i]}::int8, ${`E'${l.replace(/\\/g, '\\\\').replace(/'/g, "''").replace(/\r/g, '\\r').replace(/\n/g, '\\n')}'`})`);
  const pieces: Buffer[] = [];
  await db.copyTo(
    `SELECT count(*), max(id), string_agg(line, '' ORDER BY id) FROM (VALUES ${values.join(', ')}) v (id, line)`,
    (piece) => void pieces.push(Buffer.from(piece)),
  );
  copy = Buffer.concat(pieces);
}, 60_000);
afterAll(() => db.close());

/** What copiedLines writes of `copy` cut into pieces of `size` bytes. */
async function fed(size: number, out: Writable & { text?: () => string } = sink()) {
  const copied = copiedLines(out);
  for (let at = 0; at < copy.length; at += size) await copied.write(copy.subarray(at, at + size));
  return { ...(await copied.end()), text: out.text!() };
}

function sink(highWaterMark?: number) {
  const chunks: Buffer[] = [];
  const out = new Writable({
    highWaterMark,
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      setImmediate(callback);
    },
  });
  return Object.assign(out, { text: () => Buffer.concat(chunks).toString('utf8') });
}

describe('copiedLines, csv lines out of a binary COPY', () => {
  it('writes each line as it is, however the COPY is cut, and answers the count and the last id', async () => {
    for (const size of [1, 2, 3, 5, 7, 18, 19, 20, 64, 1000, 65_536, 300_000, copy.length]) {
      expect(await fed(size)).toEqual({ count: 4, last: 40, text: lines.join('') });
    }
  });

  it('holds the COPY back while the file takes its writes', async () => {
    const copied = copiedLines(sink(1024));
    const waits = [];
    for (let at = 0; at < copy.length; at += 4096) waits.push(copied.write(copy.subarray(at, at + 4096)));
    expect(waits.some((w) => w instanceof Promise)).toBe(true);
    await Promise.all(waits);
    expect(await copied.end()).toEqual({ count: 4, last: 40 });
  });

  it('answers an empty batch with no line', async () => {
    const pieces: Buffer[] = [];
    await db.copyTo(
      `SELECT count(*), max(id), string_agg(line, '' ORDER BY id) FROM (VALUES (1::int8, 'x')) v (id, line) WHERE false`,
      (piece) => void pieces.push(Buffer.from(piece)),
    );
    const out = new PassThrough();
    const copied = copiedLines(out);
    for (const piece of pieces) await copied.write(piece);
    expect(await copied.end()).toEqual({ count: 0, last: null });
    expect(out.read()).toBeNull();
  });

  it('refuses what is not such a COPY, or one cut short', async () => {
    expect(() => copiedLines(sink()).write(Buffer.from('1;2026-11-29 10:00:00;Dupont;Jean\r\n'))).toThrow('COPY binaire inattendu');
    const short = copiedLines(sink());
    await short.write(copy.subarray(0, copy.length - 2));
    await expect(short.end()).rejects.toThrow('fin manquante');
    const extra = copiedLines(sink());
    expect(() => extra.write(Buffer.concat([copy, Buffer.from([0])]))).toThrow('données après la fin');
  });
});
