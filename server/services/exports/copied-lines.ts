import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { CopyWrite } from '../../db/connection';

// A csv export's lines as `COPY (SELECT l.id, <line> …) TO STDOUT (FORMAT binary)` sends them
// (csv-sql.ts writes the lines): their bytes go to the file as they come, never decoded into
// JavaScript strings and encoded again. Binary, because COPY's text format escapes the lines' CR
// and LF and its csv format quotes them; in binary a text value is its bytes as they are.

/** Bytes gathered before each write to the file: COPY sends each lead's line (about 160 bytes) in a message of its own. */
const CHUNK = 256 * 1024;
/** The binary format's header: its signature, flags and the length of an extension area (none). */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const HEADER = SIGNATURE.length + 8;
/** What follows a row's count of fields (2) before its line: the id's length (8) and value, the line's length. */
const ROW_HEAD = 4 + 8 + 4;

const malformed = (what: string) => new Error(`COPY binaire inattendu : ${what}`);

/**
 * Takes the output of one such COPY (`write`, for Queryable.copyTo) and writes each row's line
 * into `out`, with its back-pressure; `end()` writes what is left once the COPY is done, and
 * answers how many rows came and the last one's id.
 */
export function copiedLines(out: Writable): { write: CopyWrite; end(): Promise<{ count: number; last: number }> } {
  let chunk = Buffer.allocUnsafe(CHUNK);
  let used = 0;
  // The fixed-size parts (header, a row's head, the trailer) gathered across pieces.
  const head = Buffer.alloc(HEADER);
  let have = 0;
  let want = HEADER;
  let stage: 'header' | 'row' | 'line' | 'ended' = 'header';
  let lineLeft = 0;
  let count = 0;
  let last = 0;

  const flush = (): Promise<void> | undefined => {
    if (used === 0) return undefined;
    const written = out.write(chunk.subarray(0, used));
    chunk = Buffer.allocUnsafe(CHUNK);
    used = 0;
    return written ? undefined : once(out, 'drain').then(() => undefined);
  };

  /** The fixed part just gathered in `head`. */
  const parsed = () => {
    have = 0;
    if (stage === 'header') {
      if (!head.subarray(0, SIGNATURE.length).equals(SIGNATURE) || head.readInt32BE(SIGNATURE.length + 4) !== 0) throw malformed('en-tête');
      stage = 'row';
      want = 2;
    } else if (want === 2) {
      const fields = head.readInt16BE(0);
      if (fields === -1) stage = 'ended';
      else if (fields === 2) want = ROW_HEAD;
      else throw malformed(`${fields} colonnes`);
    } else {
      lineLeft = head.readInt32BE(12);
      if (head.readInt32BE(0) !== 8 || lineLeft < 0) throw malformed('ligne');
      last = Number(head.readBigInt64BE(4));
      count++;
      want = 2;
      if (lineLeft > 0) stage = 'line';
    }
  };

  const write: CopyWrite = (piece) => {
    let wait: Promise<void> | undefined;
    for (let at = 0; at < piece.length;) {
      if (stage === 'ended') throw malformed('données après la fin');
      if (stage === 'line') {
        const n = Math.min(lineLeft, piece.length - at, CHUNK - used);
        piece.copy(chunk, used, at, at + n);
        used += n;
        at += n;
        lineLeft -= n;
        if (lineLeft === 0) stage = 'row';
        if (used === CHUNK) wait = flush() ?? wait;
        continue;
      }
      const n = Math.min(want - have, piece.length - at);
      piece.copy(head, have, at, at + n);
      have += n;
      at += n;
      if (have === want) parsed();
    }
    return wait;
  };

  return {
    write,
    async end() {
      if (stage !== 'ended') throw malformed('fin manquante');
      await flush();
      return { count, last };
    },
  };
}
