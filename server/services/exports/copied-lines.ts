import type { CopyWrite } from '../../db/connection';

// A csv export's batch of lines as `COPY (SELECT count(*), max(l.id), string_agg(<line>, '' ORDER
// BY l.id) …) TO STDOUT (FORMAT binary)` sends it (csv-sql.ts writes the lines): one row, the
// batch's count and last id, then its lines, whose bytes are kept as they come, never decoded
// into a JavaScript string and encoded again. Binary, because COPY's text format escapes the
// lines' CR and LF and its csv format quotes them; in binary a text value is its bytes.
// One row rather than a row per line: node-postgres makes an object of each CopyData message, and
// the 100,000 messages of a row per line cost the server more CPU than decoding the text had.

/** The binary format's header: its signature, flags and the length of an extension area (none). */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** What the COPY holds, in order: each step's size in bytes (the lines' is read in `linesLength`). */
const STEPS = {
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
type Step = keyof typeof STEPS;
const order = Object.keys(STEPS) as Step[];

const malformed = (what: string) => new Error(`COPY binaire inattendu : ${what}`);

/**
 * Takes the output of one such COPY (`write`, for Queryable.copyTo); `end()`, once the COPY is
 * done, answers the batch's count of leads, its last id (null when it has none) and its lines'
 * bytes, in pieces.
 */
export function copiedLines(): { write: CopyWrite; end(): { count: number; last: number | null; lines: Buffer[] } } {
  const lines: Buffer[] = [];
  // Each fixed-size part (the header, a count of fields, a field's length, an int8) gathered across pieces.
  const part = Buffer.alloc(STEPS.header);
  let have = 0;
  let step = 0;
  let linesLeft = 0;
  let count = 0;
  let last: number | null = null;

  /** The part of `order[step]` just gathered: checked or read, then the next step (a NULL last id skips its value). */
  const parsed = () => {
    have = 0;
    switch (order[step]) {
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
    for (let at = 0; at < piece.length;) {
      const now = order[step]!;
      if (now === 'ended') throw malformed('données après la fin');
      if (now === 'lines') {
        const n = Math.min(linesLeft, piece.length - at);
        // A copy: the piece is a view of the connection's buffer, which it reuses.
        if (n > 0) lines.push(Buffer.from(piece.subarray(at, at + n)));
        at += n;
        linesLeft -= n;
        if (linesLeft === 0) step++;
        continue;
      }
      const n = Math.min(STEPS[now] - have, piece.length - at);
      piece.copy(part, have, at, at + n);
      have += n;
      at += n;
      if (have === STEPS[now]) parsed();
    }
    return undefined;
  };

  return {
    write,
    end() {
      if (order[step] !== 'ended') throw malformed('fin manquante');
      return { count, last, lines };
    },
  };
}
