import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { customersApi } from './endpoints';

/** GET /api/customers, by name: the customers table, the rule form's and the rules filter's choices, the palette. */
export const customersQuery = queryOptions({ queryKey: ['customers'], queryFn: () => call(customersApi.list).then((r) => r.data), staleTime: 30_000 });

/** GET /api/customers/:id/statement?month=YYYY-MM: the customer's statement of that Paris month. */
export const statementQuery = (customerId: number, month: string) =>
  queryOptions({
    queryKey: ['customers', 'statement', customerId, month],
    queryFn: () => call(customersApi.statement, { params: { id: customerId }, query: { month } }).then((r) => r.data),
    staleTime: 10_000,
  });
