import { call } from '../client';
import { download } from '../download';
import type { CustomerCreateRequest, CustomerUpdateRequest, StatementFormat } from './contract';
import { customersApi } from './endpoints';

/** POST /api/customers → 201 'Client ajouté'; an email already used → 409, an invalid field → 422. */
export const createCustomer = (body: CustomerCreateRequest) => call(customersApi.create, { body });

/** PATCH /api/customers/:id → 'Client modifié': only the fields sent change; `active: false` pauses its rules. */
export const updateCustomer = (id: number, body: CustomerUpdateRequest) => call(customersApi.update, { params: { id }, body });

/** GET /api/customers/:id/statement/file: the month's statement as a document, named by the server. */
export const downloadStatement = (customerId: number, month: string, format: StatementFormat) =>
  download(customersApi.statementFile, { params: { id: customerId }, query: { month, format } }, `releve-${month}.${format}`);
