import { useSignedInQuery } from '../signedIn';
import type { ProductionCategory } from './contract';
import { productionQuery, regionsDataQuery, type RegionsRequest } from './queries';

export const useProduction = (category: ProductionCategory) => useSignedInQuery(productionQuery(category));

/** Nothing is asked without a landing (docs/product.md §5), nor before the saved selection is known. */
export const useRegionsData = (req: RegionsRequest, ready: boolean) =>
  useSignedInQuery({ ...regionsDataQuery(req), enabled: ready && req.landings.length > 0 });
