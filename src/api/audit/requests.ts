// Calls of the audit screen: the log's pages (keyset) and its CSV export.
import { call } from '../client';
import { dispositionFilename } from '../reports/requests';
import { auditSearchParams, type AuditQuery } from './contract';
import { auditApi } from './endpoints';

export type AuditFilters = Omit<AuditQuery, '_cursor' | '_limit'>;

/** GET /api/audit: one page, after `cursor` (the previous page's `next_cursor`). */
export const fetchAuditPage = (filters: AuditFilters, limit: number, cursor?: string) =>
  call(auditApi.list, { query: auditSearchParams({ ...filters, _limit: limit, _cursor: cursor }) });

/** GET /api/audit/export.csv: the filtered log, fetched with the bearer token and handed to the browser as a download. */
export async function downloadAudit(filters: AuditFilters): Promise<string> {
  let filename: string | undefined;
  const blob = await call(auditApi.export, {
    query: auditSearchParams(filters),
    onResponse({ response }) {
      filename = dispositionFilename(response.headers.get('content-disposition'));
    },
  });
  const name = filename ?? 'journal-audit.csv';
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}
