import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import type { DepartmentCode, DepartmentCoverage, ProductionCategory, RegionsData } from './contract';
import { productionsApi } from './endpoints';

export const productionKey = (category: ProductionCategory) => ['production', category] as const;

/** GET /api/productions/:category: the saved notes, colours and selection. */
export const productionQuery = (category: ProductionCategory) =>
  queryOptions({ queryKey: productionKey(category), queryFn: () => call(productionsApi.get, { params: { category } }).then((r) => r.data) });

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
    queryFn: ({ signal }): Promise<RegionsData> => {
      // No department chosen: the production of all of them.
      const query = {
        date_range: `${req.start}<>${req.end}`,
        landings: req.landings.join(','),
        ...(req.departments.length > 0 ? { departement: req.departments.join(',') } : {}),
      };
      return call(productionsApi.regionsData, { params: { category: req.category }, query, signal }).then((r) => r.data);
    },
    placeholderData: keepPreviousData,
  });

/** GET /api/productions/:category/coverage: where a lead of the landings arriving now would be sold; read again after the sales and fills the live events bring, and each minute while shown (a rule's hours open and close by the clock, not by an event). */
export const coverageQuery = (category: ProductionCategory, landings: readonly number[]) =>
  queryOptions({
    queryKey: ['production', category, 'coverage', [...landings]],
    queryFn: ({ signal }): Promise<DepartmentCoverage[]> =>
      call(productionsApi.coverage, { params: { category }, query: { landings: landings.join(',') }, signal }).then((r) => r.data),
    refetchInterval: 60_000,
    placeholderData: keepPreviousData,
  });
