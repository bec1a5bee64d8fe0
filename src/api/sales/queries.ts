import { queryOptions } from '@tanstack/react-query';
import { api } from '../client';
import type { LeadSale } from './contract';

/** GET /api/landings/data/:landingId/sales/:leadId: whom the lead was sold to, oldest sale first (read when asked, as its routing). */
export const leadSalesQuery = (landingId: number, leadId: number) =>
  queryOptions({
    queryKey: ['sales', landingId, leadId],
    queryFn: () => api<LeadSale[]>(`/landings/data/${landingId}/sales/${leadId}`),
    staleTime: 0,
    gcTime: 60_000,
  });
