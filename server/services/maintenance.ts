import type { AppContext } from '../context';

export const VACUUM_MONTH_STATS_JOB = 'vacuum-month-stats';
export const VACUUM_LEADS_JOB = 'vacuum-leads';
export const REINDEX_LEADS_JOB = 'reindex-leads';

/**
 * PGlite has no autovacuum. Every bulk action rewrites rows of lead_month_stats (a small table:
 * vacuumed every ten minutes, in milliseconds) and of leads (vacuumed at night: it keeps the
 * list and statistics index-only, and takes the single connection for a while). Bulk status changes
 * move index entries from one status to another and leave half-empty pages behind: after a day of
 * 100,000-lead sales and resets on a million leads, leads_list_idx had grown from 101 to 384 MB and
 * the filtered page and the statistics were 1.5 to 3 times slower. A weekly REINDEX (12 s there)
 * compacts them again.
 */
export function registerMaintenanceJobs(ctx: Pick<AppContext, 'db' | 'jobs'>) {
  if (ctx.db.kind !== 'pglite') return;
  ctx.jobs.register(VACUUM_MONTH_STATS_JOB, () => ctx.db.exec('VACUUM ANALYZE lead_month_stats').then(() => undefined), { cron: '*/10 * * * *' });
  ctx.jobs.register(VACUUM_LEADS_JOB, () => ctx.db.exec('VACUUM ANALYZE leads').then(() => undefined), { cron: '30 3 * * *' });
  ctx.jobs.register(REINDEX_LEADS_JOB, () => ctx.db.exec('REINDEX TABLE leads').then(() => undefined), { cron: '0 4 * * 0' });
}
