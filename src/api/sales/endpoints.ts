import { defineEndpoint } from '../endpoint';
import { leadSalesResponse, saleReturnRequest, saleReturnResponse } from './contract';

export const salesApi = {
  ofLead: defineEndpoint({
    method: 'GET',
    path: '/api/landings/data/:id/sales/:leadId',
    auth: 'admin',
    response: leadSalesResponse,
    summary: 'Whom a lead was sold to, oldest sale first',
  }),
  ofReport: defineEndpoint({
    method: 'GET',
    path: '/api/rapports/:id/sales',
    auth: 'admin',
    response: leadSalesResponse,
    summary: "A day's report's sales, oldest first, returned or not",
  }),
  return: defineEndpoint({
    method: 'POST',
    path: '/api/sales/:id/return',
    auth: 'admin',
    body: saleReturnRequest,
    response: saleReturnResponse,
    summary: 'Returns a sale: credited, the lead offered again to the other rules',
  }),
  returnPage: defineEndpoint({
    method: 'GET',
    path: '/api/retours/:token',
    auth: 'public',
    response: 'file',
    summary: "A sale's public return page (HTML), opened from the link of its delivery",
  }),
  returnByLink: defineEndpoint({
    method: 'POST',
    path: '/api/retours/:token',
    auth: 'public',
    body: 'form',
    response: 'file',
    summary: "The return page's form: returns the sale as the admin call does, answered as a page",
  }),
};
