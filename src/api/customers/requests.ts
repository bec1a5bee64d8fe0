import { apiEnvelope } from '../client';
import type { CustomerCreateRequest, CustomerResponse } from './contract';

/** POST /api/customers → 201 'Client ajouté'; an email already used → 409, an invalid field → 422. */
export const createCustomer = (body: CustomerCreateRequest) => apiEnvelope<CustomerResponse>('/customers', { method: 'POST', body });
