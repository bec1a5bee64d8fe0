import { defineEndpoint } from '../endpoint';
import {
  customerCreateRequest,
  customerResponse,
  customersResponse,
  customerUpdateRequest,
  statementFileQuery,
  statementQuery,
  statementResponse,
} from './contract';

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
  statement: defineEndpoint({
    method: 'GET',
    path: '/api/customers/:id/statement',
    auth: 'admin',
    query: statementQuery,
    response: statementResponse,
    summary: "A customer's statement of a month: sales and credits per day, rule and channel",
  }),
  statementFile: defineEndpoint({
    method: 'GET',
    path: '/api/customers/:id/statement/file',
    auth: 'admin',
    query: statementFileQuery,
    response: 'file',
    summary: "A customer's statement of a month as a pdf, xlsx or csv document",
  }),
};
