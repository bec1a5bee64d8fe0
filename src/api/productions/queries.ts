import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../client';
import type { DepartmentCode, Production, ProductionCategory, RegionsData } from './contract';

export const productionKey = (category: ProductionCategory) => ['production', category] as const;

/** GET /api/productions/:category: the saved notes, colours and selection. */
export const productionQuery = (category: ProductionCategory) =>
  queryOptions({ queryKey: productionKey(category), queryFn: () => api<Production>(`/productions/${category}`) });

export interface RegionsRequest {
  category: ProductionCategory;
  start: string;
  end: string;
  landings: readonly number[];
  departments: readonly DepartmentCode[];
}

/** POST /api/productions/:category/regions/data (a read, POST as in the original API). */
export const regionsDataQuery = (req: RegionsRequest) =>
  queryOptions({
    queryKey: ['production', req.category, 'regions', req.start, req.end, [...req.landings], [...req.departments]],
    queryFn: ({ signal }) => {
      // No department chosen: the production of all of them.
      const query = new URLSearchParams({ date_range: `${req.start}<>${req.end}`, landings: req.landings.join(',') });
      if (req.departments.length > 0) query.set('departement', req.departments.join(','));
      return api<RegionsData>(`/productions/${req.category}/regions/data?${query}`, { method: 'POST', signal });
    },
    placeholderData: keepPreviousData,
  });
