import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { landingsApi } from '../landings/endpoints';
import type { StatsCategory } from './contract';
import { leadsApi } from './endpoints';
import { fetchLeadPage } from './requests';

/** Every query of the lead view starts with this key: an action invalidates them all. */
export const leadsKey = ['leads'] as const;

/** GET /api/landings/:id for each selected landing: names, columns, zone_climatique. */
export const landingsByIdsQuery = (ids: readonly number[]) =>
  queryOptions({
    queryKey: ['landing', ...ids],
    queryFn: () => Promise.all(ids.map((id) => call(landingsApi.get, { params: { id } }).then((r) => r.data))),
    staleTime: 60_000,
  });

/** The buyers and import sources already used: the first page's extras, without rows. */
export const leadExtrasQuery = (landingIds: readonly number[]) =>
  queryOptions({
    queryKey: [...leadsKey, 'extras', ...landingIds],
    queryFn: () => fetchLeadPage({ landingIds, status: 'new', offset: 0, limit: 0, sort: null, filters: {} }),
    select: (r) => ({ forCustomer: r.for_customer, importFrom: r.import_from, keys: r.keys }),
  });

/** How many leads each status tab holds; under the leads' key, so the live events recount them (at most once a second). */
export const statusCountsQuery = (landingIds: readonly number[]) =>
  queryOptions({
    queryKey: [...leadsKey, 'counts', ...landingIds],
    queryFn: () => call(leadsApi.statusCounts, { params: { ids: landingIds.join(',') } }).then((r) => r.data),
  });

export interface StatsRequest {
  landingIds: readonly number[];
  category: StatsCategory;
  start: string;
  end: string;
  zone: boolean;
}

/** GET /api/landings/data/departement/:ids/:category/:start/:end/:zone */
export const departmentStatsQuery = (req: StatsRequest) =>
  queryOptions({
    queryKey: [...leadsKey, 'stats', req],
    queryFn: () =>
      call(leadsApi.stats, {
        params: { ids: req.landingIds.join(','), category: req.category, start: req.start, end: req.end, zone: req.zone ? 1 : 0 },
      }).then((r) => r.data),
  });
