import { defineEndpoint } from '../endpoint';
import { auditQuery, auditResponse } from './contract';

/** Read only: nothing in the API changes or deletes a row of the audit log. */
export const auditApi = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/audit',
    auth: 'admin',
    query: auditQuery,
    response: auditResponse,
    summary: 'Who did what, when, on what and from where: newest first, cursor-paged',
  }),
  export: defineEndpoint({
    method: 'GET',
    path: '/api/audit/export.csv',
    auth: 'admin',
    query: auditQuery,
    response: 'file',
    summary: 'The filtered audit log as CSV',
  }),
};
