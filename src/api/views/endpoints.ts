import { defineEndpoint } from '../endpoint';
import { viewCreateRequest, viewDeleteResponse, viewResponse, viewsResponse, viewUpdateRequest } from './contract';

export const viewsApi = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/views',
    auth: 'user',
    response: viewsResponse,
    summary: 'This user’s saved views and the shared ones, in order, each with its live count of leads',
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/api/views',
    auth: 'user',
    body: viewCreateRequest,
    response: viewResponse,
    summary: 'Saves the lead view’s state (landings, tab, filters, sort) under a name, private or shared',
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: '/api/views/:id',
    auth: 'user',
    body: viewUpdateRequest,
    response: viewResponse,
    summary: 'Renames, shares or moves a view (a shared view: its author or an admin)',
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: '/api/views/:id',
    auth: 'user',
    response: viewDeleteResponse,
    summary: 'Deletes a view (a shared view: its author or an admin)',
  }),
};
