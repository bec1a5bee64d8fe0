import { useSignedInQuery } from '../signedIn';
import type { ProductionCategory } from './contract';
import { coverageQuery, productionQuery, regionsDataQuery, type RegionsRequest } from './queries';

export const useProduction = (category: ProductionCategory) => useSignedInQuery(productionQuery(category));

/** Nothing is asked without a landing (docs/product.md §5), nor before the saved selection is known. */
export const useRegionsData = (req: RegionsRequest, ready: boolean) =>
  useSignedInQuery({ ...regionsDataQuery(req), enabled: ready && req.landings.length > 0 });

/** The coverage layer's states, asked only while the layer is on and landings are chosen. */
export const useCoverage = (category: ProductionCategory, landings: readonly number[], on: boolean) =>
  useSignedInQuery({ ...coverageQuery(category, landings), enabled: on && landings.length > 0 });
