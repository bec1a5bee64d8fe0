import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/connection';

/** Prefix of the indexes this module owns on `leads`: one per searched form column. */
const PREFIX = 'leads_search_';

/** The index name of a form column's key: the key itself when it is a plain identifier, else a digest of it. */
export function searchIndexName(key: string): string {
  return PREFIX + (/^[a-z][a-z0-9_]{0,39}$/.test(key) ? key : `h${createHash('md5').update(key).digest('hex').slice(0, 16)}`);
}

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The columns of each index: the landing, the status, the value. */
const INDEX_COLUMNS = 3;

/**
 * Keeps a trigram index (pg_trgm) on the values of each `text` form column of the landings, for
 * the 'contains' filters (`ILIKE '%…%'`, `leads/filters.ts`): the exact count of a tab filtered
 * on a name then reads the matching leads only, where it read every lead of the tab. The landing
 * and the status lead the index (btree_gin), so that a tab's count finds its leads in it alone
 * instead of intersecting it with every entry of the tab in `leads_list_idx`.
 * Partial (leads that have the column), built concurrently, and dropped once no landing has such
 * a column. An index left invalid by an interrupted build, or of an older shape, is built again.
 * PostgreSQL only: a status change writes every index of the leads it moves, and PGlite counts a
 * tab of its size without them (docs/performance.md). Answers the indexes created and dropped.
 */
export async function syncSearchIndexes(db: Pick<Queryable, 'query' | 'exec'>): Promise<{ created: string[]; dropped: string[] }> {
  await db.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  await db.exec('CREATE EXTENSION IF NOT EXISTS btree_gin');
  const { rows: columns } = await db.query<{ key: string }>(
    `SELECT DISTINCT c->>'key' AS key FROM landings, jsonb_array_elements(columns) AS c WHERE c->>'type' = 'text' ORDER BY 1`,
  );
  const { rows: present } = await db.query<{ name: string; usable: boolean }>(
    `SELECT c.relname AS name, i.indisvalid AND i.indnatts = ${INDEX_COLUMNS} AS usable FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = 'leads'::regclass AND starts_with(c.relname, $1)`,
    [PREFIX],
  );
  const wanted = new Map(columns.map(({ key }) => [searchIndexName(key), key]));
  const usable = new Set(present.filter((p) => p.usable).map((p) => p.name));
  const dropped = present.filter((p) => !p.usable || !wanted.has(p.name)).map((p) => p.name);
  for (const name of dropped) await db.exec(`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`);
  const created: string[] = [];
  for (const [name, key] of wanted) {
    if (usable.has(name)) continue;
    const value = `(data ->> ${literal(key)})`;
    await db.exec(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS "${name}" ON leads USING gin (landing_id, entry_status, ${value} gin_trgm_ops) WHERE ${value} IS NOT NULL`,
    );
    created.push(name);
  }
  return { created, dropped: dropped.filter((name) => !wanted.has(name)) };
}
