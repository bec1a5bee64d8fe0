import { useSignedInQuery } from '../signedIn';
import { departmentStatsQuery, landingsByIdsQuery, leadExtrasQuery, statusCountsQuery, type StatsRequest } from './queries';

export const useLandingsByIds = (ids: readonly number[]) => useSignedInQuery({ ...landingsByIdsQuery(ids), enabled: ids.length > 0 });

export const useLeadExtras = (landingIds: readonly number[]) => useSignedInQuery({ ...leadExtrasQuery(landingIds), enabled: landingIds.length > 0 });

export const useStatusCounts = (landingIds: readonly number[]) => useSignedInQuery({ ...statusCountsQuery(landingIds), enabled: landingIds.length > 0 });

export const useDepartmentStats = (req: StatsRequest) =>
  useSignedInQuery({ ...departmentStatsQuery(req), enabled: req.landingIds.length > 0 && Boolean(req.start && req.end) });
