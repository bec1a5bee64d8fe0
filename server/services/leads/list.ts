import { frenchOrder } from '../../db/french-order';
import type { Landing } from '../../../src/api/landings/contract';
import type { EntryStatus, LeadCountResponse, LeadFilters, LeadKey, LeadListResponse, LeadRow, StatusCountsResponse } from '../../../src/api/leads/contract';
import { entryStatus, fixedColumns, leadListQuery } from '../../../src/api/leads/contract';
import type { Queryable } from '../../db/connection';
import type { z } from 'zod';
import { leadKeys, resolveColumn } from './columns';
import { cursorKey, decodeCursor, encodeCursor } from './cursor';
import { Params } from '../../db/params';
import { leadConditions } from './filters';
import { DUPLICATE_WINDOW } from './insert';
import type { JsonText } from '../../json-text';

type ListQuery = z.output<typeof leadListQuery>;

/**
 * A row of the list as the API shows it (`LeadRow`), written by PostgreSQL from the page's row `p`
 * as JSON text: its fixed columns, then its form values (never shadowing them nor `duplicate_of`),
 * and on a duplicate the lead it repeats (`duplicate_of`: the first lead of its landing with the
 * same phone or email within the window before it, as insert.ts flags it; null once that lead is
 * gone). Text joined rather than a jsonb built: a third of the database's time for a page.
 */
function rowJson(params: Params): { json: string; form: string } {
  const time = (column: string) => `to_char(p.${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const text = (column: string) => `coalesce(to_json(p.${column})::text, 'null')`;
  const number = (column: string) => `coalesce(p.${column}::text, 'null')`;
  const reserved = params.add([...fixedColumns, 'duplicate_of']);
  const original = `(SELECT concat('{"id":', o.id, ',"entry_status":"', o.entry_status, '"}') FROM leads o
     WHERE o.landing_id = p.landing_id AND o.entry_status = ANY(${params.add(entryStatus.options)}::text[])
       AND (o.phone = p.phone OR o.email = p.email)
       AND o.created_at > p.created_at - ${params.add(DUPLICATE_WINDOW)}::interval AND (o.created_at, o.id) < (p.created_at, p.id)
     ORDER BY o.created_at, o.id LIMIT 1)`;
  // entry_status and source are checked words: nothing to escape.
  const json = `concat('{"id":', p.id, ',"created_at":"', ${time('created_at')}, '","updated_at":"', ${time('updated_at')},
    '","landing":', p.landing_id, ',"entry_status":"', p.entry_status, '","source":"', p.source,
    '","utm_source":', ${text('utm_source')}, ',"utm_medium":', ${text('utm_medium')}, ',"utm_campaign":', ${text('utm_campaign')},
    ',"url_presale":', ${text('url_presale')}, ',"visitor":', ${text('visitor')}, ',"departement":', ${text('departement')},
    ',"zone_climatique":', ${text('zone_climatique')}, ',"sold_to":', ${text('sold_to')}, ',"convert":', ${number('convert')},
    ',"rapport_id":', ${number('rapport_id')},
    CASE WHEN f.form = '{}' THEN '' ELSE ',' || substr(left(f.form, -1), 2) END,
    CASE WHEN p.entry_status = 'duplicate' THEN ',"duplicate_of":' || coalesce(${original}, 'null') END, '}')`;
  return { json, form: `(CASE WHEN p.data ?| ${reserved}::text[] THEN p.data - ${reserved}::text[] ELSE p.data END)::text AS form` };
}

/** A page of the list, its rows as the database wrote them. */
export type LeadListPage = Omit<LeadListResponse, 'data'> & { data: JsonText<LeadRow[]> };

/** One page of leads of the selected landings, with its columns and the select lists of the view. */
export async function listLeads(db: Queryable, landings: Landing[], query: ListQuery, filters: LeadFilters): Promise<LeadListPage> {
  const params = new Params();
  const countWhere = leadConditions(landings, query.entry_status, filters, params);
  const countParams = [...params.values];
  // The planner has no statistics on form values and guesses that a filter on them keeps a few
  // leads, so it reads and sorts every lead of the landing (0.3–0.7 s on PGlite for 76,000).
  // Behind CASE the filters get its default share instead, and the newest leads are read in
  // index order until the page is full.
  const [landingCond, statusCond, ...columnConds] = countWhere;
  // Read first: a lead committed after it is above the ceiling, never on a later page of this list.
  const firstLists = query._ceiling === undefined ? await selectLists(db, true) : undefined;
  const ceiling = query._ceiling ?? firstLists!.ceiling!;
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
    `(SELECT l.*, ${sort.sortExpr} AS _sort FROM leads l WHERE ${conditions.join(' AND ')} ${order} LIMIT ${limit})`;
  // Several landings: one ordered branch per landing (each reads leads_list_idx in order), merged;
  // a single `landing_id = ANY(…)` scan would sort every matching lead.
  const branches = landings.length === 1 ? [where] : landings.map((l) => [`l.landing_id = ${params.add(l.id)}::int`, ...where]);
  const perBranch = params.add(offset + query._limit + 1);
  const row = rowJson(params);
  const pageSql = `SELECT p.id, p._sort::text AS _sort_value, ${row.json} AS json
    FROM (SELECT * FROM (${branches.map((b) => branch(b, perBranch)).join(' UNION ALL ')}) page
          ${order} LIMIT ${params.add(query._limit + 1)} OFFSET ${params.add(offset)}) p
    CROSS JOIN LATERAL (SELECT ${row.form}) f ${order}`;

  // On PostgreSQL the page and a next page's lists run on separate pool connections at once; PGlite queues them.
  const [fetched, lists] = await Promise.all([
    query._limit > 0 ? db.query<{ id: number; _sort_value: string; json: string }>(pageSql, params.values).then((r) => r.rows) : [],
    firstLists ?? selectLists(db, false),
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
      : await boundedCount(db, landings, countWhere, countParams, known, ceiling);

  return {
    data: `[${page.map((r) => r.json).join(',')}]`,
    keys: leadKeys(landings) satisfies LeadKey[],
    for_customer: lists.for_customer,
    import_from: lists.import_from,
    total,
    total_exact: exact,
    next_cursor: hasNext && lastRow ? encodeCursor(key, sort.key, lastRow._sort_value, lastRow.id) : null,
    ceiling,
  };
}

/**
 * The view's select lists, in one statement: previous buyers ('Vendu à': every sale records its
 * buyer on its export) and import sources; with `ceiling`, the newest lead's id (0 without any),
 * a list's ceiling when its first page is read.
 */
async function selectLists(db: Queryable, ceiling: boolean) {
  const { rows } = await db.query<Pick<LeadListResponse, 'for_customer' | 'import_from'> & { ceiling?: number }>(
    `SELECT ARRAY(SELECT DISTINCT ${frenchOrder('for_customer')} AS v FROM exports WHERE for_customer IS NOT NULL AND for_customer <> '' ORDER BY v) AS for_customer,
            ARRAY(SELECT DISTINCT source FROM imports ORDER BY source) AS import_from
            ${ceiling ? ', (SELECT coalesce(max(id), 0) FROM leads)::bigint AS ceiling' : ''}`,
  );
  return rows[0]!;
}

/** GET …/count: the exact total of the list that `query` and `filters` describe (up to its `_ceiling`). */
export async function countMatching(db: Queryable, landings: Landing[], query: ListQuery, filters: LeadFilters): Promise<LeadCountResponse> {
  const params = new Params();
  const where = leadConditions(landings, query.entry_status, filters, params);
  return { total: await countLeads(db, where, params.values, query._ceiling) };
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
 * The exact number of leads matching `where` (see leadConditions), up to `ceiling` when given. Landing
 * and status alone are summed from lead_month_stats, which triggers keep exact: a few thousand rows
 * instead of every index entry of the landing (76,000 cost 35 ms on PGlite and evicted the heap
 * pages that the next filtered page reads), less the few leads above the ceiling, read by the
 * primary key.
 */
export async function countLeads(db: Queryable, where: string[], params: unknown[], ceiling?: number): Promise<number> {
  const conditions = where.join(' AND ');
  const below = `$${params.length + 1}::bigint`;
  const sql =
    where.length > 2
      ? `SELECT count(*)::int AS n FROM leads l WHERE ${conditions}${ceiling === undefined ? '' : ` AND l.id <= ${below}`}`
      : `SELECT ((SELECT coalesce(sum(l.value), 0) FROM lead_month_stats l WHERE ${conditions})
                 ${ceiling === undefined ? '' : `- (SELECT count(*) FROM leads l WHERE ${conditions} AND l.id > ${below})`})::int AS n`;
  const { rows } = await db.query<{ n: number }>(sql, ceiling === undefined ? params : [...params, ceiling]);
  return rows[0]!.n;
}

/**
 * The list's total up to its ceiling, without reading every lead. Landing and status alone are
 * counted exactly (countLeads). Column filters need each lead's row: they are tried on the newest
 * COUNT_SAMPLE leads of each landing, and a landing with more leads than that counts the share
 * that matched of its exact number. Never below `atLeast`, the leads known to exist (a lead of
 * the page may have moved meanwhile). The client then asks for the exact count (GET …/count)
 * when the total is an estimate.
 */
async function boundedCount(db: Queryable, landings: Landing[], where: string[], params: unknown[], atLeast: number, ceiling: number) {
  // leadConditions binds the landing and the status first: $1 and $2. Each sample branch keeps
  // the landing condition so that $1 stays referenced (PostgreSQL refuses an untyped parameter).
  const [landing, status, ...filters] = where;
  const baseParams = params.slice(0, 2);
  if (filters.length === 0) return { total: Math.max(atLeast, await countLeads(db, where, baseParams, ceiling)), exact: true };
  const below = `l.id <= $${params.length + 1}::bigint`;
  const sample = landings
    .map(
      (l) =>
        `(SELECT * FROM leads l WHERE ${landing} AND l.landing_id = ${l.id} AND ${status} AND ${below} ORDER BY l.created_at DESC, l.id DESC LIMIT ${COUNT_SAMPLE})`,
    )
    .join(' UNION ALL ');
  const { rows } = await db.query<{ landing_id: number; hits: number; seen: number }>(
    `SELECT landing_id, count(*) FILTER (WHERE ${filters.join(' AND ')})::int AS hits, count(*)::int AS seen
       FROM (${sample}) l GROUP BY landing_id`,
    [...params, ceiling],
  );
  const sampled = rows.filter((r) => r.seen === COUNT_SAMPLE);
  let total = rows.reduce((n, r) => n + (r.seen < COUNT_SAMPLE ? r.hits : 0), 0);
  if (sampled.length === 0) return { total: Math.max(atLeast, total), exact: true };
  const bases = await db.query<{ landing_id: number; n: number }>(
    `SELECT landing_id, sum(l.value)::int AS n FROM lead_month_stats l WHERE l.landing_id = ANY($1::int[]) AND ${status} GROUP BY landing_id`,
    [sampled.map((r) => r.landing_id), baseParams[1]],
  );
  for (const r of sampled) total += Math.round((r.hits / r.seen) * (bases.rows.find((b) => b.landing_id === r.landing_id)?.n ?? r.seen));
  return { total: Math.max(atLeast, total), exact: false };
}
