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
 * Each index's list of entries not yet sorted into it, in kB: a write that finds it fuller moves
 * it all into the index (PGlite has no autovacuum to do it meanwhile). At the default 4 MB, a
 * status change of 10,000 leads moved it about every time; a search reads it whole until the next
 * vacuum, which the maintenance runs after bulk writes (docs/performance.md).
 */
const PENDING_LIST = 'gin_pending_list_limit=16384';

/**
 * Keeps a trigram index (pg_trgm) on the values of each `text` form column of the landings, for
 * the 'contains' filters (`ILIKE '%…%'`, `leads/filters.ts`): the exact count of a tab filtered
 * on a name then reads the matching leads only, where it read every lead of the tab. The landing
 * and the status lead the index (btree_gin), so that a tab's count finds its leads in it alone
 * instead of intersecting it with every entry of the tab in `leads_list_idx`.
 * Partial (leads that have the column), built concurrently on PostgreSQL (PGlite's one connection
 * waits while it builds), and dropped once no landing has such a column. An index left invalid by
 * an interrupted build, or of an older shape, is built again. Each costs a status change the
 * writing of its entries for the leads it moves; without it, a name no lead has read the whole
 * tab (docs/performance.md). On PostgreSQL, keeps a few fixed ones too (`syncKeptIndexes`).
 * Answers the indexes created and dropped.
 */
export async function syncSearchIndexes(db: Pick<Queryable, 'kind' | 'query' | 'exec'>): Promise<{ created: string[]; dropped: string[] }> {
  const concurrently = db.kind === 'pg' ? 'CONCURRENTLY' : '';
  await db.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  await db.exec('CREATE EXTENSION IF NOT EXISTS btree_gin');
  const { rows: columns } = await db.query<{ key: string }>(
    `SELECT DISTINCT c->>'key' AS key FROM landings, jsonb_array_elements(columns) AS c WHERE c->>'type' = 'text' ORDER BY 1`,
  );
  const { rows: present } = await db.query<{ name: string; usable: boolean; tuned: boolean }>(
    `SELECT c.relname AS name, i.indisvalid AND i.indnatts = ${INDEX_COLUMNS} AS usable, coalesce('${PENDING_LIST}' = ANY(c.reloptions), false) AS tuned
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = 'leads'::regclass AND starts_with(c.relname, $1)`,
    [PREFIX],
  );
  const wanted = new Map(columns.map(({ key }) => [searchIndexName(key), key]));
  const usable = new Set(present.filter((p) => p.usable).map((p) => p.name));
  const dropped = present.filter((p) => !p.usable || !wanted.has(p.name)).map((p) => p.name);
  for (const name of dropped) await db.exec(`DROP INDEX ${concurrently} IF EXISTS "${name}"`);
  for (const p of present) if (p.usable && wanted.has(p.name) && !p.tuned) await db.exec(`ALTER INDEX "${p.name}" SET (${PENDING_LIST})`);
  const created: string[] = [];
  for (const [name, key] of wanted) {
    if (usable.has(name)) continue;
    const value = `(data ->> ${literal(key)})`;
    await db.exec(
      `CREATE INDEX ${concurrently} IF NOT EXISTS "${name}" ON leads USING gin (landing_id, entry_status, ${value} gin_trgm_ops) WITH (${PENDING_LIST}) WHERE ${value} IS NOT NULL`,
    );
    created.push(name);
  }
  if (db.kind === 'pg') created.push(...(await syncKeptIndexes(db)));
  await syncValueStatistics(db, wanted);
  return { created, dropped: dropped.filter((name) => !wanted.has(name)) };
}

/**
 * Statistics of each searched column's values (`CREATE STATISTICS` on the expression, named as
 * its index), from which the planner estimates the share of leads a 'contains' filter keeps: it
 * reads no statistics of a partial index. A lead page then reads a rare name's few leads by the
 * index and a common name's newest leads in order (filters.ts `pageConditions`). New ones are
 * filled by an ANALYZE of leads (0.8 s at 10,000,000 leads: it reads a sample).
 */
async function syncValueStatistics(db: Pick<Queryable, 'query' | 'exec'>, wanted: Map<string, string>): Promise<void> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT stxname AS name FROM pg_statistic_ext WHERE stxrelid = 'leads'::regclass AND starts_with(stxname, $1)`,
    [PREFIX],
  );
  const present = new Set(rows.map((r) => r.name));
  for (const name of present) if (!wanted.has(name)) await db.exec(`DROP STATISTICS IF EXISTS "${name}"`);
  const missing = [...wanted].filter(([name]) => !present.has(name));
  for (const [name, key] of missing) await db.exec(`CREATE STATISTICS IF NOT EXISTS "${name}" ON (data ->> ${literal(key)}) FROM leads`);
  if (missing.length > 0) await db.exec('ANALYZE leads');
}

/** A trigram index of lead_persons' values of a column: what `personPaths` (person-search.ts) reaches. */
const personIndex = (column: string) => `lead_persons USING gin (landing_id, ${column} gin_trgm_ops) WHERE ${column} IS NOT NULL`;

/**
 * Indexes kept whatever the landings, by name and definition (on the table, from `USING` or the
 * columns on). The 'contains' filters on a phone, an email or a postal code column find their
 * leads through lead_persons, which no status change writes: a trigram index there costs intakes
 * and imports only, where one on `leads` cost every status change of the leads it holds. A count
 * on a postal code that many leads share reads the landing's postal codes from a btree instead,
 * whose entries cost less to read than those persons' rows (list.ts `countConditions`). A page
 * or a count filtered on departments reads their leads of the tab from leads_department_idx, in
 * creation order within each department, where leads_list_idx held them among every lead of the
 * tab (list.ts); the zone and the source ride along, so that a department beside either is read
 * from the index alone. PGlite reads a tab of its size without it, and every status change
 * writes it (docs/performance.md).
 */
const KEPT_INDEXES: Record<string, string> = {
  lead_persons_phone_trgm: personIndex('phone'),
  lead_persons_email_trgm: personIndex('email'),
  lead_persons_postal_code_trgm: personIndex('postal_code'),
  lead_persons_postal_code_idx: 'lead_persons (landing_id, postal_code) INCLUDE (lead_id) WHERE postal_code IS NOT NULL',
  leads_department_idx: 'leads (landing_id, entry_status, departement, created_at DESC, id DESC) INCLUDE (zone_climatique, source)',
};

/** Builds those of KEPT_INDEXES missing or left invalid, as those of the form columns are built. Answers those it built. */
async function syncKeptIndexes(db: Pick<Queryable, 'query' | 'exec'>): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indisvalid AND c.relname = ANY($1::text[])`,
    [Object.keys(KEPT_INDEXES)],
  );
  const created: string[] = [];
  for (const [name, definition] of Object.entries(KEPT_INDEXES)) {
    if (rows.some((r) => r.name === name)) continue;
    await db.exec(`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`);
    await db.exec(`CREATE INDEX CONCURRENTLY "${name}" ON ${definition}`);
    created.push(name);
  }
  return created;
}
