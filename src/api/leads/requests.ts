// Lead calls of the lead view: the list (as the grid's page loader), bulk actions, export,
// conversion and import; the grid's columns and filters in the API's terms.
import type { ColumnKind, GridColumnSpec, GridFilters, GridSort } from '../../grid/types';
import { call } from '../client';
import {
  leadListSearchParams,
  type ConvertRequest,
  type DeleteRequest,
  type EntryStatus,
  type ExportRequest,
  type ImportRequest,
  type LeadFilters,
  type LeadKey,
  type StatusChangeRequest,
} from './contract';
import { leadsApi } from './endpoints';

const kindOf = (key: LeadKey): ColumnKind =>
  key.filter === 'date' ? 'date' : key.filter === 'values' ? 'select' : key.filter === 'number' ? 'number' : 'text';

/** Starting widths of the fixed columns that are narrower or wider than the grid's default. */
const widths: Record<string, number> = { id: 84, created_at: 196, updated_at: 196, entry_status: 110, value: 84, departement: 70 };

/**
 * The list's `keys` as grid columns. Fixed columns carry no label (the view names them from the
 * catalogs in the current language); form columns carry their landing's. The form columns (name,
 * phone…) come right after the id and the date: that is what staff read. rapport_id stays in the
 * rows (reports refer to it) but never shows (docs/product.md §2).
 */
export function leadColumns(keys: LeadKey[]): GridColumnSpec[] {
  const lead = keys.filter((k) => k.key === 'id' || k.key === 'created_at');
  const ordered = [...lead, ...keys.filter((k) => !k.fixed), ...keys.filter((k) => k.fixed && !lead.includes(k))];
  return ordered.map((k) => ({
    key: k.key,
    label: k.fixed ? '' : (k.label ?? k.key),
    kind: kindOf(k),
    options: k.options,
    hidden: k.hidden || k.key === 'rapport_id',
    width: widths[k.key],
  }));
}

/** Grid filters (one string per column) in the API's three kinds, read from the columns. */
export function leadFilters(filters: GridFilters, columns: readonly GridColumnSpec[]): LeadFilters {
  const out: Required<LeadFilters> = { contains: {}, values: {}, dates: {} };
  for (const [key, value] of Object.entries(filters)) {
    const kind = columns.find((c) => c.key === key)?.kind ?? 'text';
    if (kind === 'date') out.dates[key] = value;
    else if (kind === 'select') out.values[key] = [value];
    else out.contains[key] = value;
  }
  return out;
}

/** The API's filters back as the grid's (one string per column): what a saved view opens with. */
export function gridFilters(filters: LeadFilters): GridFilters {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(filters.contains ?? {})) out[key] = value;
  for (const [key, list] of Object.entries(filters.values ?? {})) if (list[0] !== undefined) out[key] = list[0];
  for (const [key, range] of Object.entries(filters.dates ?? {})) out[key] = range;
  return out;
}

export interface LeadPageRequest {
  landingIds: readonly number[];
  status: EntryStatus;
  offset: number;
  limit: number;
  sort: GridSort | null;
  filters: LeadFilters;
  /** Only leads up to this id (the list's first page's `ceiling`); none: up to the newest. */
  ceiling?: number | undefined;
}

/** GET /api/landings/data/:ids — one page of leads with the view's columns and select lists. */
export function fetchLeadPage(req: LeadPageRequest, signal?: AbortSignal) {
  const params = leadListSearchParams(
    {
      _limit: req.limit,
      _offset: req.offset,
      entry_status: req.status,
      ...(req.sort ? { _sort: req.sort.key, _order: req.sort.dir } : {}),
      _ceiling: req.ceiling,
    },
    req.filters,
  );
  return call(leadsApi.list, { params: { ids: req.landingIds.join(',') }, query: params, signal });
}

/** The exact total of the list a page request describes (the page's own total may be an estimate). */
export function fetchLeadCount(req: LeadPageRequest, signal?: AbortSignal) {
  const params = leadListSearchParams({ entry_status: req.status, _ceiling: req.ceiling }, req.filters);
  return call(leadsApi.count, { params: { ids: req.landingIds.join(',') }, query: params, signal }).then((r) => r.total);
}

/**
 * Every id matching the view's filters ("all N matching" for the actions that take ids), up to
 * the list's ceiling when given (the leads on screen), else up to the first page's.
 */
export async function fetchAllMatchingIds(req: Omit<LeadPageRequest, 'offset' | 'limit'>, max = 100_000): Promise<number[]> {
  const ids: number[] = [];
  // Every page under one ceiling: leads arriving meanwhile shift none of them.
  let ceiling = req.ceiling;
  for (let offset = 0; offset < max; offset += 500) {
    const page = await fetchLeadPage({ ...req, offset, limit: 500, ceiling });
    ceiling = page.ceiling;
    for (const row of page.data) ids.push(row.id);
    if (page.data.length < 500) break;
  }
  return ids;
}

export const changeStatus = (body: StatusChangeRequest) => call(leadsApi.changeStatus, { body });

export const undoAction = (actionId: number) => call(leadsApi.undo, { params: { id: actionId } });

export const deleteLeads = (body: DeleteRequest) => call(leadsApi.remove, { body });

export const convertLeads = (body: ConvertRequest) => call(leadsApi.convert, { body });

export const exportLeads = (landingIds: readonly number[], body: ExportRequest) =>
  call(leadsApi.export, { params: { ids: landingIds.join(',') }, body }).then((r) => r.data);

export const importLeads = (landingId: number, body: ImportRequest) => call(leadsApi.import, { params: { id: landingId }, body });
