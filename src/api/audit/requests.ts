// Calls of the audit screen: the log's pages (keyset) and its CSV export.
import { call } from '../client';
import { download } from '../download';
import { auditSearchParams, type AuditQuery } from './contract';
import { auditApi } from './endpoints';

export type AuditFilters = Omit<AuditQuery, '_cursor' | '_limit'>;

/** GET /api/audit: one page, after `cursor` (the previous page's `next_cursor`). */
export const fetchAuditPage = (filters: AuditFilters, limit: number, cursor?: string) =>
  call(auditApi.list, { query: auditSearchParams({ ...filters, _limit: limit, _cursor: cursor }) });

/** GET /api/audit/export.csv: the filtered log as a download. */
export const downloadAudit = (filters: AuditFilters) => download(auditApi.export, { query: auditSearchParams(filters) }, 'journal-audit.csv');
