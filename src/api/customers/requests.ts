import { apiEnvelope } from '../client';
import type { CustomerCreateRequest, CustomerResponse, CustomerUpdateRequest } from './contract';

/** POST /api/customers → 201 'Client ajouté'; an email already used → 409, an invalid field → 422. */
export const createCustomer = (body: CustomerCreateRequest) => apiEnvelope<CustomerResponse>('/customers', { method: 'POST', body });

/** PATCH /api/customers/:id → 'Client modifié': only the fields sent change; `active: false` pauses its rules. */
export const updateCustomer = (id: number, body: CustomerUpdateRequest) => apiEnvelope<CustomerResponse>(`/customers/${id}`, { method: 'PATCH', body });
