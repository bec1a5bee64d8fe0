import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { reportsApi } from './endpoints';

export const reportsKey = ['reports'] as const;

/** GET /api/rapports/rules/:ruleId: the rule's daily reports (newest first), the rule and the last export link. */
export const reportsQuery = (ruleId: number) =>
  queryOptions({ queryKey: [...reportsKey, ruleId], queryFn: () => call(reportsApi.ofRule, { params: { ruleId } }), staleTime: 10_000 });

/** GET /api/rapports/:id/deliveries: every delivery attempt of the day's leads, newest first. */
export const deliveriesQuery = (reportId: number) =>
  queryOptions({
    queryKey: [...reportsKey, 'deliveries', reportId],
    queryFn: () => call(reportsApi.deliveries, { params: { id: reportId } }).then((r) => r.data),
    staleTime: 10_000,
  });
