import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { CopyWrite } from '../../db/connection';

// A csv export's batch of lines as `COPY (SELECT count(*), max(l.id), string_agg(<line>, '' ORDER
// BY l.id) …) TO STDOUT (FORMAT binary)` sends it (csv-sql.ts writes the lines): one row, the
// batch's count and last id ahead of its lines, whose bytes go to the file as they come, never
// decoded into a JavaScript string and encoded again. Binary, because COPY's text format escapes
// the lines' CR and LF and its csv format quotes them; in binary a text value is its bytes.
// One row rather than a row per line: node-postgres makes an object of each CopyData message, and
// the 100,000 messages of a row per line cost the server more CPU than decoding the text had.

/** Bytes gathered before each write to the file. */
const CHUNK = 256 * 1024;
/** The binary format's header: its signature, flags and the length of an extension area (none). */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

const malformed = (what: string) => new Error(`COPY binaire inattendu : ${what}`);

/**
 * Takes the output of one such COPY (`write`, for Queryable.copyTo) and writes the lines into
 * `out`, with its back-pressure; `end()` writes what is left once the COPY is done, and answers
 * the batch's count of leads and last id (0 and null for an empty batch).
 */
export function copiedLines(out: Writable): { write: CopyWrite; end(): Promise<{ count: number; last: number | null }> } {
  let chunk = Buffer.allocUnsafe(CHUNK);
  let used = 0;
  // Each fixed-size part (the header, a count of fields, a field's length, an int8) gathered across pieces.
  const part = Buffer.alloc(SIGNATURE.length + 8);
  let have = 0;
  const steps = ['header', 'fields', 'countLength', 'count', 'lastLength', 'last', 'linesLength', 'lines', 'trailer', 'ended'] as const;
  let step = 0;
  const sizes: Record<(typeof steps)[number], number> = {
    header: SIGNATURE.length + 8,
    fields: 2,
    countLength: 4,
    count: 8,
    lastLength: 4,
    last: 8,
    linesLength: 4,
    lines: 0,
    trailer: 2,
    ended: 0,
  };
  let linesLeft = 0;
  let count = 0;
  let last: number | null = null;

  const flush = (): Promise<void> | undefined => {
    if (used === 0) return undefined;
    const written = out.write(chunk.subarray(0, used));
    chunk = Buffer.allocUnsafe(CHUNK);
    used = 0;
    return written ? undefined : once(out, 'drain').then(() => undefined);
  };

  /** The part of `steps[step]` just gathered: checked or read, then the next step (a NULL field skips its value). */
  const parsed = () => {
    have = 0;
    switch (steps[step]) {
      case 'header':
        if (!part.subarray(0, SIGNATURE.length).equals(SIGNATURE) || part.readInt32BE(SIGNATURE.length + 4) !== 0) throw malformed('en-tête');
        break;
      case 'fields':
        if (part.readInt16BE(0) !== 3) throw malformed(`${part.readInt16BE(0)} colonnes`);
        break;
      case 'countLength':
        if (part.readInt32BE(0) !== 8) throw malformed('nombre de lignes');
        break;
      case 'count':
        count = Number(part.readBigInt64BE(0));
        break;
      case 'lastLength':
        if (part.readInt32BE(0) === -1)
          step++; // no lead: max(id) is NULL
        else if (part.readInt32BE(0) !== 8) throw malformed('dernier id');
        break;
      case 'last':
        last = Number(part.readBigInt64BE(0));
        break;
      case 'linesLength':
        linesLeft = Math.max(part.readInt32BE(0), 0); // NULL (-1) when there is no lead
        break;
      case 'trailer':
        if (part.readInt16BE(0) !== -1) throw malformed('plusieurs lignes');
        break;
    }
    step++;
  };

  const write: CopyWrite = (piece) => {
    let wait: Promise<void> | undefined;
    for (let at = 0; at < piece.length;) {
      const now = steps[step];
      if (now === 'ended') throw malformed('données après la fin');
      if (now === 'lines') {
        const n = Math.min(linesLeft, piece.length - at, CHUNK - used);
        piece.copy(chunk, used, at, at + n);
        used += n;
        at += n;
        linesLeft -= n;
        if (used === CHUNK) wait = flush() ?? wait;
        if (linesLeft === 0) step++;
        continue;
      }
      const n = Math.min(sizes[now] - have, piece.length - at);
      piece.copy(part, have, at, at + n);
      have += n;
      at += n;
      if (have === sizes[now]) parsed();
    }
    return wait;
  };

  return {
    write,
    async end() {
      if (steps[step] !== 'ended') throw malformed('fin manquante');
      await flush();
      return { count, last };
    },
  };
}
