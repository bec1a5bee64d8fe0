import { queryOptions } from '@tanstack/react-query';
import { api } from '../client';
import type { Customer } from './contract';

/** GET /api/customers, by name: the customers table, the rule form's and the rules filter's choices, the palette. */
export const customersQuery = queryOptions({ queryKey: ['customers'], queryFn: () => api<Customer[]>('/customers'), staleTime: 30_000 });
