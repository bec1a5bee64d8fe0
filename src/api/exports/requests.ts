// Calls of the exports screen: the history (the grid's pages), the re-injection and the big export.
import { call } from '../client';
import { exportsSearchParams, type BigExportQuery } from './contract';
import { exportsApi } from './endpoints';

/** The screen's filters: `userId` 0 is everybody's exports. */
export interface ExportFilters {
  userId: number;
  landings: readonly number[];
  start: string;
  end: string;
  forCustomer: string;
}

/** GET /api/exports: one page of the history with its name maps, buyers and the selection's total of leads. */
export const fetchExports = (f: ExportFilters, page: { offset: number; limit: number }, signal?: AbortSignal) => {
  const params = exportsSearchParams({
    landing_id: f.landings.join(','),
    user_id: f.userId ? String(f.userId) : '',
    created_at: `${f.start}<>${f.end}`,
    for_customer: f.forCustomer,
    _offset: String(page.offset),
    _limit: String(page.limit),
  });
  return call(exportsApi.list, { query: params, signal });
};

/** POST /api/exports/insert/:id: the export's leads still extracted under it go back to new ('Leads insérés'). */
export const reinjectExport = (id: number) => call(exportsApi.reinject, { params: { id } });

/** POST /api/generate_big_export: 202 at once with the job; 409 with the running `job` while another of this user runs. */
export const generateBigExport = (query: BigExportQuery) => call(exportsApi.generateBig, { query });

/** GET /api/big_exports/:id: the job's progress, asked again until it ends. */
export const fetchBigExportJob = (id: number, signal?: AbortSignal) => call(exportsApi.bigJob, { params: { id }, signal }).then((r) => r.data);

/** GET /api/big_exports: the user's jobs of the last day, newest first (one still running after a reload). */
export const fetchBigExportJobs = () => call(exportsApi.bigJobs).then((r) => r.data);
