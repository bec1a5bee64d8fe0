import { defineEndpoint } from '../endpoint';
import { customerCreateRequest, customerResponse, customersResponse, customerUpdateRequest } from './contract';

export const customersApi = {
  list: defineEndpoint({ method: 'GET', path: '/api/customers', auth: 'admin', response: customersResponse, summary: 'Every customer, by name' }),
  create: defineEndpoint({
    method: 'POST',
    path: '/api/customers',
    auth: 'admin',
    body: customerCreateRequest,
    response: customerResponse,
    summary: 'Adds a customer',
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: '/api/customers/:id',
    auth: 'admin',
    body: customerUpdateRequest,
    response: customerResponse,
    summary: 'Changes the fields sent; active: false pauses its rules',
  }),
};
