import type { AppContext } from '../context';

export const VACUUM_MONTH_STATS_JOB = 'vacuum-month-stats';
export const VACUUM_LEADS_JOB = 'vacuum-leads';

/**
 * PGlite has no autovacuum. Every bulk action rewrites rows of lead_month_stats (a small table:
 * vacuumed every ten minutes, in milliseconds) and of leads (vacuumed at night: it keeps the
 * list and statistics index-only, and takes the single connection for a while).
 */
export function registerMaintenanceJobs(ctx: Pick<AppContext, 'db' | 'jobs'>) {
  if (ctx.db.kind !== 'pglite') return;
  ctx.jobs.register(VACUUM_MONTH_STATS_JOB, () => ctx.db.exec('VACUUM ANALYZE lead_month_stats').then(() => undefined), { cron: '*/10 * * * *' });
  ctx.jobs.register(VACUUM_LEADS_JOB, () => ctx.db.exec('VACUUM ANALYZE leads').then(() => undefined), { cron: '30 3 * * *' });
}
