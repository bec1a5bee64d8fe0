import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/connection';

/** Prefix of the indexes this module owns on `leads`: one per searched form column. */
const PREFIX = 'leads_search_';

/** The index name of a form column's key: the key itself when it is a plain identifier, else a digest of it. */
export function searchIndexName(key: string): string {
  return PREFIX + (/^[a-z][a-z0-9_]{0,39}$/.test(key) ? key : `h${createHash('md5').update(key).digest('hex').slice(0, 16)}`);
}

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * Keeps a trigram index (pg_trgm) on the values of each `text` form column of the landings, for
 * the 'contains' filters (`ILIKE '%…%'`, `leads/filters.ts`): the exact count of a tab filtered
 * on a name then reads the matching leads only, where it read every lead of the tab. Partial
 * (leads that have the column), built concurrently, and dropped once no landing has such a column.
 * An index left invalid by an interrupted build is built again. PostgreSQL only: a status change
 * writes every index of the leads it moves, and PGlite counts a tab of its size without them
 * (docs/performance.md). Answers the indexes created and dropped.
 */
export async function syncSearchIndexes(db: Pick<Queryable, 'query' | 'exec'>): Promise<{ created: string[]; dropped: string[] }> {
  await db.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  const { rows: columns } = await db.query<{ key: string }>(
    `SELECT DISTINCT c->>'key' AS key FROM landings, jsonb_array_elements(columns) AS c WHERE c->>'type' = 'text' ORDER BY 1`,
  );
  const { rows: present } = await db.query<{ name: string; valid: boolean }>(
    `SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = 'leads'::regclass AND starts_with(c.relname, $1)`,
    [PREFIX],
  );
  const wanted = new Map(columns.map(({ key }) => [searchIndexName(key), key]));
  const valid = new Set(present.filter((p) => p.valid).map((p) => p.name));
  const dropped = present.filter((p) => !p.valid || !wanted.has(p.name)).map((p) => p.name);
  for (const name of dropped) await db.exec(`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`);
  const created: string[] = [];
  for (const [name, key] of wanted) {
    if (valid.has(name)) continue;
    const value = `(data ->> ${literal(key)})`;
    await db.exec(`CREATE INDEX CONCURRENTLY IF NOT EXISTS "${name}" ON leads USING gin (${value} gin_trgm_ops) WHERE ${value} IS NOT NULL`);
    created.push(name);
  }
  return { created, dropped: dropped.filter((name) => !wanted.has(name)) };
}
