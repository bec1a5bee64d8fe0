import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import {
  convertRequest,
  convertResponse,
  countResponse,
  deleteRequest,
  departmentStatsResponse,
  exportRequest,
  exportResponse,
  importRequest,
  importResponse,
  intakeResponse,
  leadCountResponse,
  leadListQuery,
  leadListResponse,
  statsParams,
  statusChangeRequest,
  statusChangeResponse,
  statusCountsResponse,
  undoResponse,
} from './contract';

/**
 * The list's query: its own parameters, and the column filters named after the landings' columns
 * (`filter[nom]`, `in[x]` repeated, `date[x]`), read by the server from the query as sent.
 */
const leadListFilters = leadListQuery.catchall(z.union([z.string(), z.array(z.string())]));

export const leadsApi = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/landings/data/:ids',
    auth: 'user',
    query: leadListFilters,
    response: leadListResponse,
    summary: 'One page of leads of these landings (ids joined by commas), filtered and sorted',
  }),
  count: defineEndpoint({
    method: 'GET',
    path: '/api/landings/data/:ids/count',
    auth: 'user',
    query: leadListFilters,
    response: leadCountResponse,
    summary: 'The exact number of leads a list query matches',
  }),
  statusCounts: defineEndpoint({
    method: 'GET',
    path: '/api/landings/data/:ids/counts',
    auth: 'user',
    response: statusCountsResponse,
    summary: 'How many leads of these landings are in each status (the tabs)',
  }),
  changeStatus: defineEndpoint({
    method: 'POST',
    path: '/api/landings/data',
    auth: 'user',
    body: statusChangeRequest,
    response: statusChangeResponse,
    summary: 'Moves leads to a status (ids or a filter), undoable',
  }),
  undo: defineEndpoint({ method: 'POST', path: '/api/landings/data/undo/:id', auth: 'user', response: undoResponse, summary: 'Undoes a status change' }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: '/api/landings/data',
    auth: 'user',
    body: deleteRequest,
    response: countResponse,
    summary: 'Deletes leads',
  }),
  convert: defineEndpoint({
    method: 'POST',
    path: '/api/landings/convert/leads',
    auth: 'user',
    body: convertRequest,
    response: convertResponse,
    summary: 'Copies leads into another landing',
  }),
  export: defineEndpoint({
    method: 'POST',
    path: '/api/landings/data/:ids/export',
    auth: 'user',
    body: exportRequest,
    response: exportResponse,
    summary: 'Sells the selected leads once: a file and its download link',
  }),
  download: defineEndpoint({
    method: 'GET',
    path: '/api/exports/:token/:filename',
    auth: 'public',
    response: 'file',
    summary: 'An export file: the link is the capability',
  }),
  import: defineEndpoint({
    method: 'POST',
    path: '/api/landings/:id/import/excel',
    auth: 'user',
    body: importRequest,
    response: importResponse,
    summary: "Imports a sheet's rows as leads of the landing",
  }),
  stats: defineEndpoint({
    method: 'GET',
    path: '/api/landings/data/departement/:ids/:category/:start/:end/:zone',
    auth: 'user',
    params: statsParams.extend({ ids: z.string() }),
    response: departmentStatsResponse,
    summary: 'Leads per department (or climate zone) over a period',
  }),
  intakePreflight: defineEndpoint({
    method: 'OPTIONS',
    path: '/api/intake/:key',
    auth: 'public',
    response: 'none',
    summary: 'CORS preflight of the intake',
  }),
  intake: defineEndpoint({
    method: 'POST',
    path: '/api/intake/:key',
    auth: 'public',
    body: 'form',
    response: intakeResponse,
    summary: "A landing page's form: JSON, url-encoded or multipart, checked against the landing's columns",
  }),
};
