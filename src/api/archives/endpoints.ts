import { defineEndpoint } from '../endpoint';
import { archiveMonthParams, archiveRestoreResponse, archiveRunResponse, leadArchivesResponse } from './contract';

/** Retention (docs/operations.md 'Retention'): old leads archived to files of the export storage, and back. */
export const archivesApi = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/exports/archives',
    auth: 'admin',
    response: leadArchivesResponse,
    summary: 'The archived months, one file per month and landing',
  }),
  run: defineEndpoint({
    method: 'POST',
    path: '/api/exports/archives/run',
    auth: 'admin',
    response: archiveRunResponse,
    summary: 'Archives now the leads older than RETENTION_MONTHS (409 when retention is off)',
  }),
  restore: defineEndpoint({
    method: 'POST',
    path: '/api/exports/archives/:month/restore',
    auth: 'admin',
    params: archiveMonthParams,
    response: archiveRestoreResponse,
    summary: "Brings an archived month's leads back into the database, with their ids, all or nothing",
  }),
};
