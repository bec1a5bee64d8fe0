import { defineEndpoint } from '../endpoint';
import { bigExportAccepted, bigExportJobResponse, bigExportJobsResponse, bigExportQuery, exportsQuery, exportsResponse, reinjectResponse } from './contract';

/** 'Gestion des exports': the history, the re-injection and the custom exports. */
export const exportsApi = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/exports',
    auth: 'admin',
    query: exportsQuery,
    response: exportsResponse,
    summary: 'One page of the history of exports',
  }),
  reinject: defineEndpoint({
    method: 'POST',
    path: '/api/exports/insert/:id',
    auth: 'admin',
    response: reinjectResponse,
    summary: "An export's leads still extracted under it go back to new",
  }),
  generateBig: defineEndpoint({
    method: 'POST',
    path: '/api/generate_big_export',
    auth: 'admin',
    query: bigExportQuery,
    response: bigExportAccepted,
    summary: 'Starts a custom export (202 at once with the job)',
  }),
  bigJobs: defineEndpoint({
    method: 'GET',
    path: '/api/big_exports',
    auth: 'admin',
    response: bigExportJobsResponse,
    summary: "The user's custom exports of the last day",
  }),
  bigJob: defineEndpoint({ method: 'GET', path: '/api/big_exports/:id', auth: 'admin', response: bigExportJobResponse, summary: "A custom export's progress" }),
};
