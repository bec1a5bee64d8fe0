import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { salesApi } from './endpoints';

/** Every sales query starts with it: a return refreshes them all. */
export const salesKey = ['sales'] as const;

/** GET /api/landings/data/:landingId/sales/:leadId: whom the lead was sold to, oldest sale first (read when asked, as its routing). */
export const leadSalesQuery = (landingId: number, leadId: number) =>
  queryOptions({
    queryKey: [...salesKey, landingId, leadId],
    queryFn: async () => (await call(salesApi.ofLead, { params: { id: landingId, leadId } })).data,
    staleTime: 0,
    gcTime: 60_000,
  });

/** GET /api/rapports/:id/sales: the sales of a day's report, oldest first. */
export const reportSalesQuery = (reportId: number) =>
  queryOptions({
    queryKey: [...salesKey, 'report', reportId],
    queryFn: async () => (await call(salesApi.ofReport, { params: { id: reportId } })).data,
    staleTime: 10_000,
  });
