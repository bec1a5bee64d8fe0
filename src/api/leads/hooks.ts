// Lead calls of the lead view: the list (as the grid's page loader), bulk actions, export,
// conversion, import and the department statistics.
import { useQuery } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import type { ColumnKind, GridColumnSpec, GridFilters, GridSort } from '../../grid/types';
import { userState } from '../../state/user';
import { api, apiEnvelope } from '../client';
import type { AllLandingsResponse, Landing, LandingRef } from '../landings/contract';
import {
  leadListSearchParams,
  type ConvertRequest,
  type ConvertResponse,
  type CountResponse,
  type DeleteRequest,
  type DepartmentStat,
  type EntryStatus,
  type ExportLink,
  type ExportRequest,
  type ImportRequest,
  type ImportResponse,
  type LeadFilters,
  type LeadKey,
  type LeadCountResponse,
  type LeadListResponse,
  type StatsCategory,
  type StatusChangeRequest,
  type StatusChangeResponse,
  type UndoResponse,
} from './contract';

export const leadsKey = ['leads'] as const;

const kindOf = (key: LeadKey): ColumnKind =>
  key.filter === 'date' ? 'date' : key.filter === 'values' ? 'select' : key.filter === 'number' ? 'number' : 'text';

/**
 * The list's `keys` as grid columns; fixed columns are labelled from the catalogs. The landing's
 * form columns (name, phone…) come right after the id and the date: that is what staff read.
 */
export function leadColumns(keys: LeadKey[], t: (id: string) => string): GridColumnSpec[] {
  const lead = keys.filter((k) => k.key === 'id' || k.key === 'created_at');
  const ordered = [...lead, ...keys.filter((k) => !k.fixed), ...keys.filter((k) => k.fixed && !lead.includes(k))];
  return ordered.map((k) => ({
    key: k.key,
    label: k.label ?? t(`leads.column.${k.key}`),
    kind: kindOf(k),
    options: k.options,
    hidden: k.hidden,
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

export interface LeadPageRequest {
  landingIds: readonly number[];
  status: EntryStatus;
  offset: number;
  limit: number;
  sort: GridSort | null;
  filters: LeadFilters;
}

/** GET /api/landings/data/:ids — one page of leads with the view's columns and select lists. */
export function fetchLeadPage(req: LeadPageRequest, signal?: AbortSignal) {
  const params = leadListSearchParams(
    {
      _limit: req.limit,
      _offset: req.offset,
      entry_status: req.status,
      ...(req.sort ? { _sort: req.sort.key, _order: req.sort.dir } : {}),
    },
    req.filters,
  );
  return apiEnvelope<LeadListResponse>(`/landings/data/${req.landingIds.join(',')}?${params}`, { signal });
}

/** The exact total of the list a page request describes (the page's own total may be an estimate). */
export function fetchLeadCount(req: LeadPageRequest, signal?: AbortSignal) {
  const params = leadListSearchParams({ entry_status: req.status }, req.filters);
  return apiEnvelope<LeadCountResponse>(`/landings/data/${req.landingIds.join(',')}/count?${params}`, { signal }).then((r) => r.total);
}

/** Every id matching the view's filters ("all N matching" for the actions that take ids). */
export async function fetchAllMatchingIds(req: Omit<LeadPageRequest, 'offset' | 'limit'>, max = 100_000): Promise<number[]> {
  const ids: number[] = [];
  for (let offset = 0; offset < max; offset += 500) {
    const page = await fetchLeadPage({ ...req, offset, limit: 500 });
    for (const row of page.data) ids.push(row.id);
    if (page.data.length < 500) break;
  }
  return ids;
}

export const changeStatus = (body: StatusChangeRequest) => apiEnvelope<StatusChangeResponse>('/landings/data', { method: 'POST', body });

export const undoAction = (actionId: number) => apiEnvelope<UndoResponse>(`/landings/data/undo/${actionId}`, { method: 'POST' });

export const deleteLeads = (body: DeleteRequest) => apiEnvelope<CountResponse>('/landings/data', { method: 'DELETE', body });

export const convertLeads = (body: ConvertRequest) => apiEnvelope<ConvertResponse>('/landings/convert/leads', { method: 'POST', body });

export const exportLeads = (landingIds: readonly number[], body: ExportRequest) =>
  api<ExportLink>(`/landings/data/${landingIds.join(',')}/export`, { method: 'POST', body });

export const importLeads = (landingId: number, body: ImportRequest) =>
  apiEnvelope<ImportResponse>(`/landings/${landingId}/import/excel`, { method: 'POST', body });

/** GET /api/landings/:id for each selected landing: names, columns, zone_climatique. */
export function useLandingsByIds(ids: readonly number[]) {
  const { token } = useSnapshot(userState);
  return useQuery({
    queryKey: ['landing', ...ids],
    queryFn: () => Promise.all(ids.map((id) => api<Landing>(`/landings/${id}`))),
    enabled: Boolean(token) && ids.length > 0,
    staleTime: 60_000,
  });
}

/** GET /api/all/landings: every landing, standard and facebook, for the pickers. */
export function useAllLandings() {
  const { token } = useSnapshot(userState);
  return useQuery({
    queryKey: ['all-landings'],
    queryFn: () => apiEnvelope<AllLandingsResponse>('/all/landings').then((r): LandingRef[] => r.data),
    enabled: Boolean(token),
    staleTime: 60_000,
  });
}

/** The buyers and import sources already used: the first page's extras, without rows. */
export function useLeadExtras(landingIds: readonly number[]) {
  const { token } = useSnapshot(userState);
  return useQuery({
    queryKey: [...leadsKey, 'extras', ...landingIds],
    queryFn: () => fetchLeadPage({ landingIds, status: 'new', offset: 0, limit: 0, sort: null, filters: {} }),
    select: (r) => ({ forCustomer: r.for_customer, importFrom: r.import_from, keys: r.keys }),
    enabled: Boolean(token) && landingIds.length > 0,
  });
}

export interface StatsRequest {
  landingIds: readonly number[];
  category: StatsCategory;
  start: string;
  end: string;
  zone: boolean;
}

/** GET /api/landings/data/departement/:ids/:category/:start/:end/:zone */
export function useDepartmentStats(req: StatsRequest) {
  const { token } = useSnapshot(userState);
  return useQuery({
    queryKey: [...leadsKey, 'stats', req],
    queryFn: () => api<DepartmentStat[]>(`/landings/data/departement/${req.landingIds.join(',')}/${req.category}/${req.start}/${req.end}/${req.zone ? 1 : 0}`),
    enabled: Boolean(token) && req.landingIds.length > 0 && Boolean(req.start && req.end),
  });
}
