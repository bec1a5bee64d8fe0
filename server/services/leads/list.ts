import type { Landing } from '../../../src/api/contract/landings';
import type { LeadFilters, LeadKey, LeadListResponse, LeadRow } from '../../../src/api/contract/leads';
import { leadListQuery } from '../../../src/api/contract/leads';
import type { Queryable } from '../../db/connection';
import { validationFailed } from '../../errors';
import type { z } from 'zod';
import { isFixedColumn, leadKeys, Params, resolveColumn } from './columns';
import { leadConditions } from './filters';

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
  for (const [k, v] of Object.entries(r.data)) if (!isFixedColumn(k)) Object.defineProperty(row, k, { value: v, enumerable: true, writable: true, configurable: true });
  return row;
}

const cursorError = () => validationFailed({ _cursor: 'Curseur invalide' }, 'Curseur invalide');

function decodeCursor(cursor: string): [string, number] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && Number.isSafeInteger(value[1])) {
      return value as [string, number];
    }
  } catch {
    // falls through to the 422
  }
  throw cursorError();
}

const encodeCursor = (sortValue: string, id: number) => Buffer.from(JSON.stringify([sortValue, id])).toString('base64url');

/** One page of leads of the selected landings, with its columns and the select lists of the view. */
export async function listLeads(db: Queryable, landings: Landing[], query: ListQuery, filters: LeadFilters): Promise<LeadListResponse> {
  const params = new Params();
  const where = leadConditions(landings, query.entry_status, filters, params);
  const countParams = [...params.values];
  const countWhere = [...where];

  const sort = resolveColumn(landings, query._sort, params, '_sort');
  const dir = query._order === 'asc' ? 'ASC' : 'DESC';
  if (query._cursor) {
    const [value, id] = decodeCursor(query._cursor);
    const cast = sort.type === 'date' ? 'text' : sort.type;
    where.push(`(${sort.sortExpr}, l.id) ${dir === 'ASC' ? '>' : '<'} (${params.add(value)}::${cast}, ${params.add(id)}::bigint)`);
  }
  const offset = query._cursor ? 0 : query._offset;
  const order = `ORDER BY _sort ${dir}, id ${dir}`;
  const branch = (conditions: string[], limit: string) =>
    `(SELECT ${rowSelect}, ${sort.sortExpr} AS _sort FROM leads l WHERE ${conditions.join(' AND ')} ${order} LIMIT ${limit})`;
  // Several landings: one ordered branch per landing (each reads leads_list_idx in order), merged;
  // a single `landing_id = ANY(…)` scan would sort every matching lead.
  const branches =
    landings.length === 1
      ? [where]
      : landings.map((l) => [`l.landing_id = ${params.add(l.id)}::int`, ...where]);
  const perBranch = params.add(offset + query._limit + 1);
  const pageSql = `SELECT *, _sort::text AS _sort_value FROM (${branches.map((b) => branch(b, perBranch)).join(' UNION ALL ')}) page
    ${order} LIMIT ${params.add(query._limit + 1)} OFFSET ${params.add(offset)}`;

  // On PostgreSQL the four queries run on separate pool connections at once; PGlite queues them.
  const [fetched, total, forCustomer, importFrom] = await Promise.all([
    query._limit > 0 ? db.query<LeadDbRow & { _sort_value: string }>(pageSql, params.values).then((r) => r.rows) : [],
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM leads l WHERE ${countWhere.join(' AND ')}`, countParams).then((r) => r.rows[0].n),
    previousBuyers(db),
    importSources(db),
  ]);
  // One row more than asked tells whether a next page exists.
  const page = fetched.slice(0, query._limit);
  const lastRow = page.at(-1);

  return {
    data: page.map(toLeadRow),
    keys: leadKeys(landings) satisfies LeadKey[],
    for_customer: forCustomer,
    import_from: importFrom,
    total,
    next_cursor: fetched.length > page.length && lastRow ? encodeCursor(lastRow._sort_value, lastRow.id) : null,
  };
}

/** Previous buyers ('Vendu à'): every sale records its buyer on its export. */
export async function previousBuyers(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ v: string }>(
    "SELECT DISTINCT for_customer AS v FROM exports WHERE for_customer IS NOT NULL AND for_customer <> '' ORDER BY 1",
  );
  return rows.map((r) => r.v);
}

export async function importSources(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ source: string }>('SELECT DISTINCT source FROM imports ORDER BY source');
  return rows.map((r) => r.source);
}
