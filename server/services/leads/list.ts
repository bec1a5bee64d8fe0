import { frenchOrder } from '../../db/french-order';
import type { Landing } from '../../../src/api/landings/contract';
import type { EntryStatus, LeadCountResponse, LeadFilters, LeadKey, LeadListResponse, LeadRow, StatusCountsResponse } from '../../../src/api/leads/contract';
import { entryStatus, fixedColumns, leadFilters, leadListQuery } from '../../../src/api/leads/contract';
import { parse } from '../../validate';
import type { Queryable } from '../../db/connection';
import type { z } from 'zod';
import { leadKeys, resolveColumn } from './columns';
import { cursorKey, decodeCursor, encodeCursor } from './cursor';
import { Params } from '../../db/params';
import { countingStats } from './counting-stats';
import { copiedColumn, leadConditions, pageConditions } from './filters';
import { personPaths } from './person-search';
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
  const original = `(SELECT concat('{"id":', o.id, ',"entry_status":"', o.entry_status, '"}')
     FROM lead_persons op JOIN leads o ON o.id = op.lead_id
     WHERE op.landing_id = p.landing_id AND (op.phone = p.phone OR op.email = p.email)
       AND op.created_at > p.created_at - ${params.add(DUPLICATE_WINDOW)}::interval AND (op.created_at, op.lead_id) < (p.created_at, p.id)
     ORDER BY op.created_at, op.lead_id LIMIT 1)`;
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

/**
 * One page of leads of the selected landings, with its columns, the select lists of the view and
 * the list's total, in one statement: each statement costs the server a socket write and a wake-up
 * of the database, more than the rows it brings (docs/performance.md).
 */
export async function listLeads(db: Queryable, landings: Landing[], query: ListQuery, filters: LeadFilters): Promise<LeadListPage> {
  const params = new Params();
  const { tab, always, searched, indexed, unknown } = pageConditions(landings, query.entry_status, filters, params);
  const countWhere = [...tab, ...always, ...searched, ...indexed, ...unknown];
  // The planner has no statistics on most form values and guesses that a filter on them keeps a
  // few leads, so it reads and sorts every lead of the landing (0.3–0.7 s on PGlite for 76,000).
  // Behind CASE the filters get its default share instead, and the newest leads are read in
  // index order until the page is full. Those it can estimate stay in view: it then reads a rare
  // name's few leads by its index, and a common one's in order (docs/performance.md).
  // A first page reads the list's ceiling, the newest lead's id, in its own snapshot: every lead it
  // sees is below it, and a lead committed later is above it, never on a later page of this list.
  const ceiling = query._ceiling === undefined ? undefined : params.add(query._ceiling);
  const paths = personPaths(db, landings, filters, params).map((p) => p.sql);
  const where = [...tab, ...always, ...searched, ...paths, ...(ceiling ? [`l.id <= ${ceiling}::bigint`] : [])];
  const hidden = (conditions: string[]) => (conditions.length ? [`(CASE WHEN ${conditions.join(' AND ')} THEN true END)`] : []);

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
  // Filters on the department, the zone, the source or the UTM source and medium, in creation
  // order: the ids are read from an index alone (leads_department_idx for departments,
  // leads_list_idx otherwise: an index-only scan, the planner seeing these filters), and only the
  // leads they keep are read from the table. Read whole, a rare department's page read every
  // newer lead of the tab (docs/performance.md). A search the planner sees, which finds its leads
  // by another index, is left to it.
  const fromIndex = indexed.length > 0 && sort.key === 'created_at' && searched.length === 0 && paths.length === 0;
  const branch = (conditions: string[], limit: string) =>
    fromIndex
      ? `(SELECT l.*, x._sort FROM (SELECT l.id, ${sort.sortExpr} AS _sort FROM leads l WHERE ${[...conditions, ...indexed].join(' AND ')} ${order}) x
            CROSS JOIN LATERAL (SELECT * FROM leads l WHERE l.id = x.id OFFSET 0) l
          WHERE ${['true', ...hidden(unknown)].join(' AND ')} ORDER BY x._sort ${dir}, x.id ${dir} LIMIT ${limit})`
      : `(SELECT l.*, ${sort.sortExpr} AS _sort FROM leads l WHERE ${[...conditions, ...hidden([...indexed, ...unknown])].join(' AND ')} ${order} LIMIT ${limit})`;
  // Several landings: one ordered branch per landing (each reads leads_list_idx in order), merged;
  // a single `landing_id = ANY(…)` scan would sort every matching lead.
  const branches = landings.length === 1 ? [where] : landings.map((l) => [`l.landing_id = ${params.add(l.id)}::int`, ...where]);
  // One row more than asked tells whether a next page exists.
  const fetched = query._limit > 0 ? query._limit + 1 : 0;
  const perBranch = params.add(offset + fetched);
  const limit = params.add(query._limit);
  const row = rowJson(params);
  const page = `SELECT p.id, p._sort::text AS _sort_value, row_number() OVER (${order}) AS n, ${row.json} AS json
    FROM (SELECT * FROM (${branches.map((b) => branch(b, perBranch)).join(' UNION ALL ')}) page
          ${order} LIMIT ${params.add(fetched)} OFFSET ${params.add(offset)}) p
    CROSS JOIN LATERAL (SELECT ${row.form}) f`;
  // A first page that holds the whole list is its own count: the count runs only when it is needed.
  const countNeeded = offset > 0 || query._cursor || query._limit === 0 ? 'true' : `(SELECT count(*) FROM page_rows) > ${limit}`;
  const { rows } = await db.query<SelectLists & PageRow & { ceiling: number | null; total: number | null; exact: boolean | null }>(
    `WITH page_rows AS MATERIALIZED (${page}), counted AS (${boundedCountSql(landings, countWhere, countingStats(landings, filters, params), ceiling)})
     SELECT (SELECT string_agg(json, ',' ORDER BY n) FROM page_rows WHERE n <= ${limit}) AS json,
            (SELECT count(*) FROM page_rows)::int AS fetched,
            (SELECT id FROM page_rows WHERE n = ${limit}) AS id, (SELECT _sort_value FROM page_rows WHERE n = ${limit}) AS _sort_value,
            ${selectListsSql},
            ${ceiling ? 'NULL' : '(SELECT coalesce(max(id), 0) FROM leads)::bigint'} AS ceiling,
            CASE WHEN ${countNeeded} THEN (SELECT total FROM counted) END AS total,
            CASE WHEN ${countNeeded} THEN (SELECT exact FROM counted) END AS exact`,
    params.values,
  );
  const answer = rows[0]!;
  const shown = Math.min(answer.fetched, query._limit);
  const hasNext = answer.fetched > shown;
  // A lead of the page may have moved since the count: the total is never below the leads seen.
  const known = offset + shown + (hasNext ? 1 : 0);
  return {
    data: `[${answer.json ?? ''}]`,
    keys: leadKeys(landings) satisfies LeadKey[],
    for_customer: answer.for_customer,
    import_from: answer.import_from,
    total: answer.total === null ? shown : Math.max(known, answer.total),
    total_exact: answer.exact ?? true,
    next_cursor: hasNext && answer.id !== null ? encodeCursor(key, sort.key, answer._sort_value, answer.id) : null,
    ceiling: query._ceiling ?? answer.ceiling!,
  };
}

type SelectLists = Pick<LeadListResponse, 'for_customer' | 'import_from'>;
type PageRow = { json: string | null; fetched: number; id: number | null; _sort_value: string | null };

/** The view's select lists: previous buyers ('Vendu à': every sale records its buyer on its export) and import sources. */
const selectListsSql = `ARRAY(SELECT DISTINCT ${frenchOrder('for_customer')} AS v FROM exports WHERE for_customer IS NOT NULL AND for_customer <> '' ORDER BY v) AS for_customer,
  ARRAY(SELECT DISTINCT source FROM imports ORDER BY source) AS import_from`;

/**
 * Leads of a tab up to which a count reads the tab's whole range of leads_list_idx for a filter on
 * a phone or an email (copiedColumn) rather than follow the person path: the index's entries cost
 * the same whatever the filter matches, the person path's leads are read one by one from the
 * table, and a count is asked when a filter matches more leads than a page (docs/performance.md).
 */
const INDEX_COUNT_CEILING = 2_000_000;

/** GET …/count: the exact total of the list that `query` and `filters` describe (up to its `_ceiling`). */
export async function countMatching(db: Queryable, landings: Landing[], query: ListQuery, filters: LeadFilters): Promise<LeadCountResponse> {
  const params = new Params();
  const where = await countConditions(db, landings, query.entry_status, filters, params);
  return { total: await countLeads(db, where, params.values, countingStats(landings, filters, params), query._ceiling) };
}

/**
 * The conditions of an exact count: leadConditions, but a filter that a person path finds is left
 * to that path, which keeps the leads the filter keeps (person-search.ts), so that the leads it
 * names are told by their landing and status from an index instead of each read from the table.
 * A phone or an email is tested on leads_list_idx instead, up to INDEX_COUNT_CEILING leads.
 */
export async function countConditions(
  db: Queryable,
  landings: Landing[],
  status: EntryStatus | EntryStatus[],
  input: LeadFilters,
  params: Params,
): Promise<string[]> {
  const filters = parse(leadFilters, input);
  const fromIndex =
    db.kind === 'pg' &&
    Object.keys(filters.contains).some((key) => copiedColumn(landings, key)) &&
    (await tabSize(db, landings, status)) <= INDEX_COUNT_CEILING;
  const paths = personPaths(db, landings, filters, params, { copied: !fromIndex });
  const contains = Object.entries(filters.contains).filter(([key]) => !paths.some((p) => p.key === key));
  return [...leadConditions(landings, status, { ...filters, contains: Object.fromEntries(contains) }, params), ...paths.map((p) => p.sql)];
}

/** The number of leads of these landings in this status, from lead_month_stats. */
async function tabSize(db: Queryable, landings: Landing[], status: EntryStatus | EntryStatus[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT coalesce(sum(value), 0)::float8 AS n FROM lead_month_stats WHERE landing_id = ANY($1::int[]) AND entry_status = ANY($2::text[])',
    [landings.map((l) => l.id), [status].flat()],
  );
  return rows[0]!.n;
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
 * The exact number of leads matching `where` (see leadConditions) as SQL selecting `n`, up to the
 * `ceiling` placeholder when given. Landing and status alone, or with filters that `stats` (see
 * countingStats) counts, are summed from the monthly counts, which triggers keep exact: a few
 * thousand rows instead of every lead of the tab (76,000 index entries cost 35 ms on PGlite and
 * evicted the heap pages that the next filtered page reads; at 10,000,000 leads a tab's leads are
 * spread over most of the table's pages), less the few leads above the ceiling, read by the
 * primary key.
 */
function countSql(where: string[], stats: string | null, ceiling?: string): string {
  const conditions = where.join(' AND ');
  const from = stats ?? (where.length === 2 ? 'lead_month_stats' : null);
  return from
    ? `SELECT ((SELECT coalesce(sum(l.value), 0) FROM ${from} l WHERE ${conditions})
               ${ceiling ? `- (SELECT count(*) FROM leads l WHERE ${conditions} AND l.id > ${ceiling}::bigint)` : ''})::int AS n`
    : `SELECT count(*)::int AS n FROM leads l WHERE ${conditions}${ceiling ? ` AND l.id <= ${ceiling}::bigint` : ''}`;
}

export async function countLeads(db: Queryable, where: string[], params: unknown[], stats: string | null, ceiling?: number): Promise<number> {
  const sql = countSql(where, stats, ceiling === undefined ? undefined : `$${params.length + 1}`);
  const { rows } = await db.query<{ n: number }>(sql, ceiling === undefined ? params : [...params, ceiling]);
  return rows[0]!.n;
}

/**
 * The list's total up to its ceiling (a placeholder; none on a first page, whose snapshot is its
 * ceiling) as SQL selecting `total` and `exact`, without reading every lead. What lead_month_stats
 * counts is counted exactly (countSql). Other column filters need each lead's row: they are tried on the
 * newest COUNT_SAMPLE leads of each landing, and a landing with more leads than that counts the
 * share that matched of its exact number. The client then asks for the exact count (GET …/count)
 * when the total is an estimate.
 */
function boundedCountSql(landings: Landing[], where: string[], stats: string | null, ceiling?: string): string {
  const [landing, status, ...filters] = where;
  if (stats || filters.length === 0) return `SELECT n AS total, true AS exact FROM (${countSql(where, stats, ceiling)}) c`;
  const below = ceiling ? ` AND l.id <= ${ceiling}::bigint` : '';
  const sample = landings
    .map(
      (l) =>
        `(SELECT * FROM leads l WHERE ${landing} AND l.landing_id = ${l.id} AND ${status}${below} ORDER BY l.created_at DESC, l.id DESC LIMIT ${COUNT_SAMPLE})`,
    )
    .join(' UNION ALL ');
  const base = `(SELECT sum(l.value) FROM lead_month_stats l WHERE l.landing_id = s.landing_id AND ${status})`;
  return `SELECT coalesce(sum(CASE WHEN s.seen < ${COUNT_SAMPLE} THEN s.hits ELSE round(s.hits::numeric / s.seen * coalesce(${base}, s.seen)) END), 0)::int AS total,
                 coalesce(bool_and(s.seen < ${COUNT_SAMPLE}), true) AS exact
            FROM (SELECT landing_id, count(*) FILTER (WHERE ${filters.join(' AND ')}) AS hits, count(*) AS seen
                    FROM (${sample}) l GROUP BY landing_id) s`;
}
