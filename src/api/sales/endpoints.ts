import { defineEndpoint } from '../endpoint';
import { leadSalesResponse } from './contract';

export const salesApi = {
  ofLead: defineEndpoint({
    method: 'GET',
    path: '/api/landings/data/:id/sales/:leadId',
    auth: 'admin',
    response: leadSalesResponse,
    summary: 'Whom a lead was sold to, oldest sale first',
  }),
};
