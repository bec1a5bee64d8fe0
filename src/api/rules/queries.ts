import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { reportsApi } from '../reports/endpoints';
import type { RulesTodayResponse } from './contract';
import { rulesApi } from './endpoints';
import { fetchRulesToday } from './requests';

/** Every query of rules starts with this key: a change to a rule invalidates them all. */
export const rulesKey = ['rules'] as const;

/** GET /api/customers/rules?customer_id=N (0: every customer's rules). */
export const rulesQuery = (customerId: number) =>
  queryOptions({
    queryKey: [...rulesKey, customerId],
    queryFn: () => call(rulesApi.list, { query: customerId > 0 ? { customer_id: String(customerId) } : {} }).then((r) => r.data),
    staleTime: 10_000,
  });

/**
 * GET /api/customers/rules/today: today's fill of each rule, asked again on each `rule.fill` or
 * sale event with the last `version`; an unchanged fill (a 204 without body) keeps the previous
 * answer (same object: nothing re-renders).
 */
export const rulesTodayQuery = (customerId: number) => {
  const queryKey = [...rulesKey, 'today', customerId];
  return queryOptions({
    queryKey,
    queryFn: async ({ client, signal }): Promise<RulesTodayResponse> => {
      const previous = client.getQueryData<RulesTodayResponse>(queryKey);
      return (await fetchRulesToday(customerId, previous?.version, signal)) ?? previous!;
    },
  });
};

/** GET /api/landings/data/:landingId/routing/:leadId: why a lead went to a customer, or to none (read when asked, never kept long). */
export const routingQuery = (landingId: number, leadId: number) =>
  queryOptions({
    queryKey: ['routing', landingId, leadId],
    queryFn: () => call(reportsApi.routing, { params: { id: landingId, leadId } }).then((r) => r.data),
    staleTime: 0,
    gcTime: 60_000,
  });
