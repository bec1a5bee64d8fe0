import { queryOptions } from '@tanstack/react-query';
import { api, apiEnvelope } from '../client';
import type { DeliveryAttempt, ReportsResponse } from './contract';

export const reportsKey = ['reports'] as const;

/** GET /api/rapports/rules/:ruleId: the rule's daily reports (newest first), the rule and the last export link. */
export const reportsQuery = (ruleId: number) =>
  queryOptions({ queryKey: [...reportsKey, ruleId], queryFn: () => apiEnvelope<ReportsResponse>(`/rapports/rules/${ruleId}`), staleTime: 10_000 });

/** GET /api/rapports/:id/deliveries: every delivery attempt of the day's leads, newest first. */
export const deliveriesQuery = (reportId: number) =>
  queryOptions({
    queryKey: [...reportsKey, 'deliveries', reportId],
    queryFn: () => api<DeliveryAttempt[]>(`/rapports/${reportId}/deliveries`),
    staleTime: 10_000,
  });
