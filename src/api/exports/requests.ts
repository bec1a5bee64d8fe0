// Calls of the exports screen: the history (the grid's pages), the re-injection and the big export.
import type { GridSort } from '../../grid/types';
import { apiEnvelope } from '../client';

// Provisional shapes of issue 18 until src/api/exports/contract.ts lands.
export interface ExportRow {
  id: number;
  landing: number | null;
  user: number | null;
  filename: string;
  count: number;
  created: string;
  for_customer: string | null;
  token: string;
  big_export: boolean;
  url: string;
}
export interface ExportsResponse {
  data: ExportRow[];
  landings: Record<string, string>;
  users: Record<string, string>;
  total_leads: number;
  for_customer: { for_customer: string }[];
  total?: number;
}

/** The screen's filters: `userId` 0 is everybody's exports. */
export interface ExportFilters {
  userId: number;
  landings: readonly number[];
  start: string;
  end: string;
  forCustomer: string;
}

export function exportsSearch(f: ExportFilters, page?: { offset: number; limit: number; sort: GridSort | null }) {
  const q = new URLSearchParams();
  if (f.landings.length) q.set('landing_id', f.landings.join(','));
  if (f.userId) q.set('user_id', String(f.userId));
  if (f.start || f.end) q.set('created_at', `${f.start}<>${f.end}`);
  if (f.forCustomer) q.set('for_customer', f.forCustomer);
  if (page) {
    q.set('_offset', String(page.offset));
    q.set('_limit', String(page.limit));
    if (page.sort) {
      q.set('_sort', page.sort.key);
      q.set('_order', page.sort.dir);
    }
  }
  return q.toString();
}

/** GET /api/exports: one page of the history with its name maps, buyers and the selection's total of leads. */
export const fetchExports = (f: ExportFilters, page: { offset: number; limit: number; sort: GridSort | null }, signal?: AbortSignal) =>
  apiEnvelope<ExportsResponse>(`/exports?${exportsSearch(f, page)}`, { signal });

/** POST /api/exports/insert/:id: the export's leads still extracted under it go back to new ('Leads insérés'). */
export const reinjectExport = (id: number) => apiEnvelope<{ data: { count: number }; message: string }>(`/exports/insert/${id}`, { method: 'POST' });

export interface BigExportRequest {
  landings: readonly number[];
  status: readonly string[];
  start: string;
  end: string;
}
export interface BigExportJob {
  id: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  done: number;
  total: number;
  export: ExportRow | null;
  message?: string | null;
}

/** POST /api/generate_big_export: 202 at once with the job; 409 while another of this user runs. */
export function generateBigExport(req: BigExportRequest) {
  const q = new URLSearchParams({ landings: req.landings.join(','), status: req.status.join(','), start: req.start, end: req.end });
  return apiEnvelope<{ data: BigExportJob; message?: string }>(`/generate_big_export?${q}`, { method: 'POST' });
}

/** The job's progress, asked again until it ends. */
export const fetchBigExportJob = (id: string, signal?: AbortSignal) => apiEnvelope<{ data: BigExportJob }>(`/generate_big_export/${encodeURIComponent(id)}`, { signal });
