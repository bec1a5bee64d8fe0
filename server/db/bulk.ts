import type { Queryable } from './connection';

/** A value as PostgreSQL's text input reads it; arrays become array literals, objects JSON. */
function toText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return `{${v.map((x) => `"${String(x).replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/**
 * Inserts many rows with one `INSERT … SELECT FROM unnest(text[], …)` per batch: every column
 * travels as a text array and is cast to its type in SQL, which PGlite and node-postgres both
 * accept. `columns` maps each column to its SQL type; an `expr` (e.g. a default for nulls) may
 * wrap the cast value, written with `$` standing for it.
 */
export async function bulkInsert(
  q: Queryable,
  table: string,
  columns: Record<string, string | { type: string; expr: string }>,
  rows: unknown[][],
  batchSize = 5000,
): Promise<void> {
  const names = Object.keys(columns);
  const select = names.map((name, i) => {
    const def = columns[name]!;
    const cast = `c${i}::${typeof def === 'string' ? def : def.type}`;
    return typeof def === 'string' ? cast : def.expr.replace('$', cast);
  });
  const sql = `INSERT INTO ${table} (${names.join(', ')})
    SELECT ${select.join(', ')} FROM unnest(${names.map((_, i) => `$${i + 1}::text[]`).join(', ')}) AS u(${names.map((_, i) => `c${i}`).join(', ')})`;
  for (let start = 0; start < rows.length; start += batchSize) {
    const batch = rows.slice(start, start + batchSize);
    await q.query(
      sql,
      names.map((_, i) => batch.map((row) => toText(row[i]))),
    );
  }
}

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
/** A field of COPY's text format: `\N` for NULL, backslash, tab and line breaks escaped, nothing quoted. */
export const copyField = (v: unknown) => {
  const text = toText(v);
  if (text === null) return '\\N';
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]!) : text;
};

/**
 * Inserts rows with one `COPY table (columns) FROM STDIN` in its text format: values as in
 * `bulkInsert` (arrays as array literals, objects as JSON), in the columns' order. Built in csv,
 * where every field is quoted and every quote of the JSON doubled, the same rows took 25–40 % longer.
 */
export function copyRows(q: Queryable, table: string, columns: string[], rows: unknown[][]): Promise<number> {
  if (rows.length === 0) return Promise.resolve(0);
  return q.copyFrom(
    `${table} (${columns.join(', ')})`,
    rows.map((row) => row.map(copyField).join('\t')),
  );
}

/**
 * Reserves `n` ids of a serial column, so rows can point at each other before they are inserted.
 * The sequence is looked up once, in a materialized CTE: looked up for each id, 20,000 ids took
 * 1.9–4.9 s on PGlite instead of 0.2–0.4 s; looked up by a statement of its own, it was one more
 * round trip for every intake. They come back as one string rather than `n` rows for PGlite's
 * client to decode.
 */
export async function reserveIds(q: Queryable, table: string, n: number): Promise<number[]> {
  if (n === 0) return [];
  const { rows } = await q.query<{ ids: string }>(
    `WITH s AS MATERIALIZED (SELECT pg_get_serial_sequence($1, 'id')::regclass AS seq)
     SELECT string_agg(nextval(s.seq)::text, ',') AS ids FROM s, generate_series(1, $2)`,
    [table, n],
  );
  return rows[0]!.ids.split(',').map(Number);
}
