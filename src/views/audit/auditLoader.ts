import type { AuditResponse } from '../../api/audit/contract';
import { fetchAuditPage, type AuditFilters } from '../../api/audit/requests';
import type { Row, RowLoader } from '../../grid/types';

/**
 * The grid asks for pages by offset; the log pages by cursor (newest first, rows keep coming).
 * Each page is fetched after the one before it, whose `next_cursor` it follows, once per list:
 * a page asked again (a refresh) starts the chain over from the first. The total is what came so
 * far, plus one row while more follow, so the grid asks for the next page as it reaches the end.
 */
/** A row of the grid: the log's row with its actor and details as text. */
export interface AuditListRow {
  id: number;
  at: string;
  actor_id: number | null;
  actor: string;
  email: string;
  action: string;
  entity: string;
  count: number;
  address: string;
  details: string;
}

export function auditLoader(filters: AuditFilters, onPage: (page: AuditResponse) => void): RowLoader {
  let pages = new Map<number, Promise<AuditResponse>>();
  const pageAt = (index: number, limit: number): Promise<AuditResponse> => {
    let page = pages.get(index);
    if (!page) {
      page =
        index === 0
          ? fetchAuditPage(filters, limit)
          : pageAt(index - 1, limit).then((before) =>
              before.next_cursor ? fetchAuditPage(filters, limit, before.next_cursor) : { ...before, data: [], next_cursor: null },
            );
      page.catch(() => pages.delete(index));
      pages.set(index, page);
    }
    return page;
  };
  return async (req) => {
    const index = Math.floor(req.offset / req.limit);
    if (index === 0) pages = new Map();
    const page = await pageAt(index, req.limit);
    onPage(page);
    const rows = page.data.map((r): AuditListRow => ({
      ...r,
      actor_id: r.actor?.id ?? null,
      actor: r.actor?.name ?? '',
      email: r.actor?.email ?? '',
      address: r.address ?? '',
      details: Object.keys(r.details).length ? JSON.stringify(r.details) : '',
    }));
    return { rows: rows as unknown as Row[], total: req.offset + rows.length + (page.next_cursor ? 1 : 0) };
  };
}
