import type { LandingColumn } from '../../../src/api/landings/contract';

// A csv export's lines as the database writes them: the same cells as writers.ts's csvWriter over
// fileColumns (cells.ts's neutralise, then quotes where a reader would split or trim), built by
// PostgreSQL and sent by COPY as bytes, written as they are (copied-lines.ts). Decoding the leads
// as JSON, mapping and encoding them in JavaScript made the csv export 12-15 × `COPY … TO STDOUT`
// of the same rows on PostgreSQL (docs/performance.md, "Bulk input and output against COPY").

/** Text a cell's value must be looked at again for: quoted, or formula-like (cells.ts). */
const special = `'[;,\\t|"\\r\\n\\ufeff]|^ | $|^[\\x01-\\x1f]*[=+@-]'`;
/** cells.ts's formulaLike (PostgreSQL's text holds no NUL). */
const formulaLike = `'^([\\t\\r\\n]|[\\x01-\\x1f]*[=+@-])'`;
/** writers.ts's needsQuotes. */
const needsQuotes = `'[;,\\t|"\\r\\n\\ufeff]|^ | $'`;

const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The cell of a value that needs a second look: neutralised, then quoted with its quotes doubled where needed. */
function treated(v: string): string {
  const n = `(CASE WHEN ${v} ~ ${formulaLike} THEN '''' || ${v} ELSE ${v} END)`;
  return `CASE WHEN ${n} ~ ${needsQuotes} THEN '"' || replace(${n}, '"', '""') || '"' ELSE ${n} END`;
}

/** A text column's cell: empty for null; most values are written as they are, after one test. */
const textCell = (v: string) => `CASE WHEN ${v} IS NULL THEN '' WHEN ${v} !~ ${special} THEN ${v} ELSE ${treated(v)} END`;

/** A form value's cell: a JSON number as it is (a negative one is never neutralised), anything else as text. */
function formCell(key: string): string {
  const v = `(l.data ->> ${literal(key)})`;
  return `CASE WHEN ${v} IS NULL THEN '' WHEN ${v} !~ ${special} OR jsonb_typeof(l.data -> ${literal(key)}) = 'number' THEN ${v} ELSE ${treated(v)} END`;
}

/** A line joined from plain cells has none of these: no cell to quote or neutralise (its `;` are counted apart). */
const plainLine = `'[,\\t|"\\r\\n\\ufeff]|(^|;) | (;|$)|(^|;)[\\x01-\\x1f]*[=+@-]'`;

/**
 * The csv lines (';' separators, CRLF) of leads `l`: id, Paris date, the form columns `form`, then
 * département, zone, source and the three utm, as extract.ts's fileColumns orders them. `join`
 * goes after the FROM item `l`, `line` is a lead's line. Most lines hold no cell to quote or
 * neutralise: their cells are joined as they are, once per lead (the lateral subquery, kept apart
 * by OFFSET 0), and the line is tested once; each cell is tested apart only when that fails. The
 * cells tested one by one cost PostgreSQL 1.4–1.6 s of CPU for 100,000 leads, the line tested
 * whole 0.8–1.1 s.
 */
export function csvLinesSql(form: LandingColumn[]): { join: string; line: string } {
  const origin = ['departement', 'zone_climatique', 'source', 'utm_source', 'utm_medium', 'utm_campaign'].map((c) => `l.${c}`);
  const head = ['l.id', `to_char(l.created_at AT TIME ZONE 'Europe/Paris', 'YYYY-MM-DD HH24:MI:SS')`];
  const plain = [...head, ...[...form.map((c) => `(l.data ->> ${literal(c.key)})`), ...origin].map((v) => `coalesce(${v}, '')`)];
  const cells = [...head, ...form.map((c) => formCell(c.key)), ...origin.map(textCell)];
  return {
    join: `CROSS JOIN LATERAL (SELECT concat_ws(';', ${plain.join(', ')}) AS plain OFFSET 0) csv`,
    line: `CASE WHEN csv.plain !~ ${plainLine} AND octet_length(csv.plain) - octet_length(replace(csv.plain, ';', '')) = ${cells.length - 1} THEN csv.plain
      ELSE concat_ws(';', ${cells.join(', ')}) END || E'\\r\\n'`,
  };
}
