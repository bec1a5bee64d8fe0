import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { salesApi } from './endpoints';

/** GET /api/landings/data/:landingId/sales/:leadId: whom the lead was sold to, oldest sale first (read when asked, as its routing). */
export const leadSalesQuery = (landingId: number, leadId: number) =>
  queryOptions({
    queryKey: ['sales', landingId, leadId],
    queryFn: async () => (await call(salesApi.ofLead, { params: { id: landingId, leadId } })).data,
    staleTime: 0,
    gcTime: 60_000,
  });
