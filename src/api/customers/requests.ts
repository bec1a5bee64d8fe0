import { call } from '../client';
import type { CustomerCreateRequest, CustomerUpdateRequest } from './contract';
import { customersApi } from './endpoints';

/** POST /api/customers → 201 'Client ajouté'; an email already used → 409, an invalid field → 422. */
export const createCustomer = (body: CustomerCreateRequest) => call(customersApi.create, { body });

/** PATCH /api/customers/:id → 'Client modifié': only the fields sent change; `active: false` pauses its rules. */
export const updateCustomer = (id: number, body: CustomerUpdateRequest) => call(customersApi.update, { params: { id }, body });
