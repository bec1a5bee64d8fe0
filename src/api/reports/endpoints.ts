import { defineEndpoint } from '../endpoint';
import { routingResponse } from '../rules/contract';
import { deliveriesResponse, reportFileQuery, reportsResponse } from './contract';

export const reportsApi = {
  ofRule: defineEndpoint({
    method: 'GET',
    path: '/api/rapports/rules/:ruleId',
    auth: 'admin',
    response: reportsResponse,
    summary: "A rule's daily reports, newest first",
  }),
  file: defineEndpoint({
    method: 'GET',
    path: '/api/rapports/:id/file',
    auth: 'admin',
    query: reportFileQuery,
    response: 'file',
    summary: "A day's delivered leads as a file",
  }),
  deliveries: defineEndpoint({
    method: 'GET',
    path: '/api/rapports/:id/deliveries',
    auth: 'admin',
    response: deliveriesResponse,
    summary: "Every delivery attempt of a day's leads",
  }),
  routing: defineEndpoint({
    method: 'GET',
    path: '/api/landings/data/:id/routing/:leadId',
    auth: 'admin',
    response: routingResponse,
    summary: 'Why a lead went to a customer, or to none',
  }),
};
