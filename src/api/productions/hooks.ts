import { useSignedInQuery } from '../signedIn';
import type { ProductionCategory } from './contract';
import { productionQuery, regionsDataQuery, type RegionsRequest } from './queries';

export const useProduction = (category: ProductionCategory) => useSignedInQuery(productionQuery(category));

/** Nothing is asked without a landing (SPEC.md §5). */
export const useRegionsData = (req: RegionsRequest) => useSignedInQuery({ ...regionsDataQuery(req), enabled: req.landings.length > 0 });
