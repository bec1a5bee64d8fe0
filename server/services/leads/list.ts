import { frenchOrder } from '../../db/french-order';
import type { Landing } from '../../../src/api/landings/contract';
import type { EntryStatus, LeadCountResponse, LeadFilters, LeadKey, LeadListResponse, LeadRow, StatusCountsResponse } from '../../../src/api/leads/contract';
import { entryStatus, leadListQuery } from '../../../src/api/leads/contract';
import type { Queryable } from '../../db/connection';
import type { z } from 'zod';
import { isFixedColumn, leadKeys, resolveColumn } from './columns';
import { cursorKey, decodeCursor, encodeCursor } from './cursor';
import { Params } from '../../db/params';
import { leadConditions } from './filters';
import { DUPLICATE_WINDOW } from './insert';
import { setValue } from './normalize';

type ListQuery = z.output<typeof leadListQuery>;

/** Columns read for a row of the list; `data` is spread after them. */
export const rowSelect = `l.id, l.created_at, l.updated_at, l.landing_id, l.entry_status, l.source, l.utm_source, l.utm_medium,
  l.utm_campaign, l.url_presale, l.visitor, l.departement, l.zone_climatique, l.sold_to, l.convert, l.rapport_id, l.data`;

export interface LeadDbRow {
  id: number;
  created_at: Date | string;
  updated_at: Date | string;
  landing_id: number;
  entry_status: LeadRow['entry_status'];
  source: LeadRow['source'];
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  url_presale: string | null;
  visitor: string | null;
  departement: string;
  zone_climatique: string;
  sold_to: string | null;
  convert: number | null;
  rapport_id: number | null;
  data: Record<string, unknown>;
}

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

/** A database row as the API shows it: fixed columns, then the form values (never shadowing them). */
export function toLeadRow(r: LeadDbRow): LeadRow {
  const row: LeadRow = {
    id: r.id,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    landing: r.landing_id,
    entry_status: r.entry_status,
    source: r.source,
    utm_source: r.utm_source,
    utm_medium: r.utm_medium,
    utm_campaign: r.utm_campaign,
    url_presale: r.url_presale,
    visitor: r.visitor,
    departement: r.departement,
    zone_climatique: r.zone_climatique,
    sold_to: r.sold_to,
    convert: r.convert,
    rapport_id: r.rapport_id,
  };
  // Plain assignments: a defineProperty per key turned every row into a dictionary-mode object
  // (150 rows of ten form keys: 4.6 times slower to build, 3 times slower to build and serialize).
  for (const [k, v] of Object.entries(r.data)) if (!isFixedColumn(k)) setValue(row as Record<string, unknown>, k, v);
  return row;
}

/** One page of leads of the selected landings, with its columns and the select lists of the view. */
export async function listLeads(db: Queryable, landings: Landing[], query: ListQuery, filters: LeadFilters): Promise<LeadListResponse> {
  const params = new Params();
  const countWhere = leadConditions(landings, query.entry_status, filters, params);
  const countParams = [...params.values];
  // The planner has no statistics on form values and guesses that a filter on them keeps a few
  // leads, so it reads and sorts every lead of the landing (0.3–0.7 s on PGlite for 76,000).
  // Behind CASE the filters get its default share instead, and the newest leads are read in
  // index order until the page is full.
  const [landingCond, statusCond, ...columnConds] = countWhere;
  // Read first: a lead committed after it is above the ceiling, never on a later page of this list.
  const ceiling = query._ceiling ?? (await newestLeadId(db));
  const where = [
    landingCond,
    statusCond,
    `l.id <= ${params.add(ceiling)}::bigint`,
    ...(columnConds.length ? [`(CASE WHEN ${columnConds.join(' AND ')} THEN true END)`] : []),
  ];

  const sort = resolveColumn(landings, query._sort, params, '_sort');
  const dir = query._order === 'asc' ? 'ASC' : 'DESC';
  const key = await cursorKey(db);
  if (query._cursor) {
    const [value, id] = decodeCursor(key, query._cursor, sort);
    const cast = sort.type === 'date' ? 'text' : sort.type;
    const idParam = params.add(id);
    const after = value === null ? `(SELECT ${sort.sortExpr} FROM leads l WHERE l.id = ${idParam}::bigint)` : `${params.add(value)}::${cast}`;
    where.push(`(${sort.sortExpr}, l.id) ${dir === 'ASC' ? '>' : '<'} (${after}, ${idParam}::bigint)`);
  }
  const offset = query._cursor ? 0 : query._offset;
  const order = `ORDER BY _sort ${dir}, id ${dir}`;
  const branch = (conditions: string[], limit: string) =>
    `(SELECT ${rowSelect}, ${sort.sortExpr} AS _sort FROM leads l WHERE ${conditions.join(' AND ')} ${order} LIMIT ${limit})`;
  // Several landings: one ordered branch per landing (each reads leads_list_idx in order), merged;
  // a single `landing_id = ANY(…)` scan would sort every matching lead.
  const branches = landings.length === 1 ? [where] : landings.map((l) => [`l.landing_id = ${params.add(l.id)}::int`, ...where]);
  const perBranch = params.add(offset + query._limit + 1);
  const pageSql = `SELECT *, _sort::text AS _sort_value FROM (${branches.map((b) => branch(b, perBranch)).join(' UNION ALL ')}) page
    ${order} LIMIT ${params.add(query._limit + 1)} OFFSET ${params.add(offset)}`;

  // On PostgreSQL the three queries run on separate pool connections at once; PGlite queues them.
  const [fetched, forCustomer, importFrom] = await Promise.all([
    query._limit > 0 ? db.query<LeadDbRow & { _sort_value: string }>(pageSql, params.values).then((r) => r.rows) : [],
    previousBuyers(db),
    importSources(db),
  ]);
  // One row more than asked tells whether a next page exists.
  const page = fetched.slice(0, query._limit);
  const lastRow = page.at(-1);
  const hasNext = fetched.length > page.length;
  // A first page that holds the whole list is its own count.
  const known = offset + page.length + (hasNext ? 1 : 0);
  const { total, exact } =
    offset === 0 && !query._cursor && !hasNext && query._limit > 0
      ? { total: page.length, exact: true }
      : await boundedCount(db, landings, countWhere, countParams, known).then(async (c) => ({
          total: Math.max(known, c.total - (await countAbove(db, countWhere, countParams, ceiling))),
          exact: c.exact,
        }));

  return {
    data: await withOriginals(db, page.map(toLeadRow)),
    keys: leadKeys(landings) satisfies LeadKey[],
    for_customer: forCustomer,
    import_from: importFrom,
    total,
    total_exact: exact,
    next_cursor: hasNext && lastRow ? encodeCursor(key, sort.key, lastRow._sort_value, lastRow.id) : null,
    ceiling,
  };
}

/** The newest lead's id (0 without any): a list's ceiling when its first page is read. */
async function newestLeadId(db: Queryable): Promise<number> {
  return (await db.query<{ id: number }>('SELECT coalesce(max(id), 0)::bigint AS id FROM leads')).rows[0]!.id;
}

/** The leads matching `where` above a list's ceiling (arrived since its first page): not in its total. Few, read by the primary key. */
async function countAbove(db: Queryable, where: string[], params: unknown[], ceiling: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM leads l WHERE ${where.join(' AND ')} AND l.id > $${params.length + 1}::bigint`,
    [...params, ceiling],
  );
  return rows[0]!.n;
}

/**
 * Each duplicate of the page gets `duplicate_of`: the lead it repeats, i.e. the first lead of its
 * landing with the same phone or email within the window before it (insert.ts flags it so).
 * One query for the page, and none when the page holds no duplicate.
 */
async function withOriginals(db: Queryable, rows: LeadRow[]): Promise<LeadRow[]> {
  const ids = rows.filter((r) => r.entry_status === 'duplicate').map((r) => r.id);
  if (ids.length === 0) return rows;
  const { rows: found } = await db.query<{ id: number; original: number | null; original_status: LeadRow['entry_status'] | null }>(
    `SELECT d.id, o.id AS original, o.entry_status AS original_status
       FROM leads d
       LEFT JOIN LATERAL (
         SELECT o.id, o.entry_status FROM leads o
          WHERE o.landing_id = d.landing_id AND o.entry_status = ANY($3::text[])
            AND (o.phone = d.phone OR o.email = d.email)
            AND o.created_at > d.created_at - $2::interval AND (o.created_at, o.id) < (d.created_at, d.id)
          ORDER BY o.created_at, o.id LIMIT 1) o ON true
      WHERE d.id = ANY($1::bigint[])`,
    [ids, DUPLICATE_WINDOW, entryStatus.options],
  );
  const byId = new Map(found.map((f) => [Number(f.id), f.original === null ? null : { id: Number(f.original), entry_status: f.original_status! }]));
  return rows.map((r) => (r.entry_status === 'duplicate' ? { ...r, duplicate_of: byId.get(r.id) ?? null } : r));
}

/** GET …/count: the exact total of the list that `query` and `filters` describe (up to its `_ceiling`). */
export async function countMatching(db: Queryable, landings: Landing[], query: ListQuery, filters: LeadFilters): Promise<LeadCountResponse> {
  const params = new Params();
  const where = leadConditions(landings, query.entry_status, filters, params);
  const total = await countLeads(db, where, params.values);
  return { total: query._ceiling === undefined ? total : total - (await countAbove(db, where, params.values, query._ceiling)) };
}

/** The leads of these landings in each status, summed from lead_month_stats (exact, a few thousand rows): the tabs' counts. */
export async function countByStatus(db: Queryable, landings: Landing[]): Promise<StatusCountsResponse> {
  const { rows } = await db.query<{ entry_status: EntryStatus; n: number }>(
    'SELECT entry_status, sum(value)::int AS n FROM lead_month_stats WHERE landing_id = ANY($1::int[]) GROUP BY entry_status',
    [landings.map((l) => l.id)],
  );
  const data = Object.fromEntries(entryStatus.options.map((status) => [status, 0])) as Record<EntryStatus, number>;
  for (const r of rows) data[r.entry_status] = r.n;
  return { data };
}

/** Leads of a landing a count reads before it settles for an estimate (~20 ms of heap reads on PGlite). */
export const COUNT_SAMPLE = 2_000;

/**
 * The exact number of leads matching `where` (see leadConditions). Landing and status alone are
 * summed from lead_month_stats, which triggers keep exact: a few thousand rows instead of every
 * index entry of the landing (76,000 cost 35 ms on PGlite and evicted the heap pages that the
 * next filtered page reads).
 */
export async function countLeads(db: Queryable, where: string[], params: unknown[]): Promise<number> {
  const [n, table] = where.length > 2 ? ['count(*)', 'leads'] : ['coalesce(sum(l.value), 0)', 'lead_month_stats'];
  const { rows } = await db.query<{ n: number }>(`SELECT ${n}::int AS n FROM ${table} l WHERE ${where.join(' AND ')}`, params);
  return rows[0].n;
}

/**
 * The list's total without reading every lead. Landing and status alone are counted exactly
 * (countLeads). Column filters need each lead's row: they are tried on the newest
 * COUNT_SAMPLE leads of each landing, and a landing with more leads than that counts the share
 * that matched of its exact number (never below `atLeast`, the leads known to exist). The
 * client then asks for the exact count (GET …/count) when the total is an estimate.
 */
async function boundedCount(db: Queryable, landings: Landing[], where: string[], params: unknown[], atLeast: number) {
  // leadConditions binds the landing and the status first: $1 and $2. Each sample branch keeps
  // the landing condition so that $1 stays referenced (PostgreSQL refuses an untyped parameter).
  const [landing, status, ...filters] = where;
  const baseParams = params.slice(0, 2);
  if (filters.length === 0) return { total: await countLeads(db, where, baseParams), exact: true };
  const sample = landings
    .map((l) => `(SELECT * FROM leads l WHERE ${landing} AND l.landing_id = ${l.id} AND ${status} ORDER BY l.created_at DESC, l.id DESC LIMIT ${COUNT_SAMPLE})`)
    .join(' UNION ALL ');
  const { rows } = await db.query<{ landing_id: number; hits: number; seen: number }>(
    `SELECT landing_id, count(*) FILTER (WHERE ${filters.join(' AND ')})::int AS hits, count(*)::int AS seen
       FROM (${sample}) l GROUP BY landing_id`,
    params,
  );
  const sampled = rows.filter((r) => r.seen === COUNT_SAMPLE);
  let total = rows.reduce((n, r) => n + (r.seen < COUNT_SAMPLE ? r.hits : 0), 0);
  if (sampled.length === 0) return { total, exact: true };
  const bases = await db.query<{ landing_id: number; n: number }>(
    `SELECT landing_id, sum(l.value)::int AS n FROM lead_month_stats l WHERE l.landing_id = ANY($1::int[]) AND ${status} GROUP BY landing_id`,
    [sampled.map((r) => r.landing_id), baseParams[1]],
  );
  for (const r of sampled) total += Math.round((r.hits / r.seen) * (bases.rows.find((b) => b.landing_id === r.landing_id)?.n ?? r.seen));
  return { total: Math.max(atLeast, total), exact: false };
}

/** Previous buyers ('Vendu à'): every sale records its buyer on its export. */
export async function previousBuyers(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ v: string }>(
    `SELECT DISTINCT ${frenchOrder('for_customer')} AS v FROM exports WHERE for_customer IS NOT NULL AND for_customer <> '' ORDER BY v`,
  );
  return rows.map((r) => r.v);
}

export async function importSources(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ source: string }>('SELECT DISTINCT source FROM imports ORDER BY source');
  return rows.map((r) => r.source);
}
