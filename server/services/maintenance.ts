import type { AppContext } from '../context';
import { defineQueue } from './jobs';
import type { Db, Queryable } from '../db/connection';
import { purgeExpiredSessions } from './auth/sessions';
import { purgeOldPasswordLinks } from './auth/password-links';
import { purgeOldFailures } from './auth/throttle';
import { exportStorage } from './exports/extract';
import { syncSearchIndexes } from './leads/search-indexes';
import { pruneLeadActions } from './leads/status';
import { purgeRateLimits } from './rate-limit';

/** The database's upkeep runs one job of a kind at a time, whichever instance queued it. */
const upkeep = { oneAtATime: true };

export const VACUUM_MONTH_STATS_JOB = defineQueue('vacuum-month-stats', {}, upkeep);
export const VACUUM_BUSY_LEADS_JOB = defineQueue('vacuum-busy-leads', {}, upkeep);
export const VACUUM_LEADS_JOB = defineQueue('vacuum-leads', {}, upkeep);
export const REINDEX_LEADS_JOB = defineQueue('reindex-leads', {}, upkeep);
export const REBUILD_LIST_INDEX_JOB = defineQueue('rebuild-list-index', {}, upkeep);
export const CHECKPOINT_JOB = defineQueue('checkpoint', {}, upkeep);
export const PURGE_AUTH_JOB = defineQueue('purge-auth', {}, upkeep);
export const PRUNE_LEAD_ACTIONS_JOB = defineQueue('prune-lead-actions', {}, upkeep);
export const SWEEP_EXPORT_PARTS_JOB = defineQueue('sweep-export-parts', {}, upkeep);
export const SEARCH_INDEXES_JOB = defineQueue('search-indexes', {}, upkeep);

/** An unfinished export file untouched this long belongs to a writer that died (a live one writes to it at every batch). */
const ABANDONED_PART_MS = 60 * 60_000;

/** Rows of leads written (updated, deleted or inserted) since its last vacuum that call for one. */
export const BUSY_LEADS_ROWS = 10_000;

/**
 * Vacuums leads when writes have churned it since its last vacuum, as autovacuum would.
 * Until then the pages those writes touched are not marked all-visible, so the statistics' and the
 * lead list's index-only reads visit the table for every lead on them: after two 100,000-lead
 * status changes on a million leads, the statistics of a year took 0.6–1.6 s instead of
 * 0.15–0.35 s, and this vacuum took 2.6 s. The written rows are those PostgreSQL's counters saw
 * since the database was opened, or those bulk statements recorded in lead_writes (migration 105),
 * which a restart keeps: PGlite's counters start from zero at every open. Answers whether it vacuumed.
 */
export async function vacuumLeadsIfBusy(db: Queryable): Promise<boolean> {
  // Counters reach pg_stat views when the backend flushes them, at most once a second: flush now.
  await db.query('SELECT pg_stat_force_next_flush()');
  const { rows } = await db.query<{ seen: number; recorded: number }>(
    `SELECT (SELECT (n_dead_tup + n_ins_since_vacuum)::int8 FROM pg_stat_user_tables WHERE relid = 'leads'::regclass) AS seen,
            (SELECT written FROM lead_writes) AS recorded`,
  );
  const { seen, recorded } = rows[0]!;
  if (Math.max(seen ?? 0, recorded ?? 0) < BUSY_LEADS_ROWS) return false;
  await vacuumLeads(db, recorded ?? 0);
  return true;
}

/**
 * VACUUM ANALYZE leads and their persons (written with them), then takes the `recorded` rows it
 * covered off lead_writes (rows recorded while it ran stay for the next one).
 */
async function vacuumLeads(db: Queryable, recorded: number): Promise<void> {
  await db.exec('VACUUM ANALYZE leads, lead_persons');
  await db.query('UPDATE lead_writes SET written = greatest(written - $1, 0), vacuumed_at = now()', [recorded]);
}

/** How many times its size after its last rebuild leads_list_idx may reach before it is rebuilt. */
export const LIST_INDEX_GROWTH = 2;

/** Records the size of leads_list_idx as its size after a rebuild; answers it, in bytes. */
async function recordListIndexSize(db: Pick<Queryable, 'query'>): Promise<number> {
  const { rows } = await db.query<{ bytes: number }>(
    "UPDATE lead_writes SET list_index_bytes = pg_relation_size('leads_list_idx') RETURNING list_index_bytes AS bytes",
  );
  return rows[0]!.bytes;
}

/**
 * Rebuilds leads_list_idx once it has grown past LIST_INDEX_GROWTH times its size after its last
 * rebuild. Bulk status changes move its entries from one status to another and leave half-empty
 * pages behind, which a vacuum does not give back: after a day of 100,000-lead sales and resets on
 * a million leads it had grown from 101 to 302 MB, and the lead page and the statistics stayed over
 * budget until the weekly reindex. Growth by new leads also counts, but doubling bounds those
 * rebuilds to one per doubling of the table. On PostgreSQL the rebuild runs concurrently with the
 * requests; PGlite has one connection, so requests wait for it (about 12 s at a million leads): it
 * runs at start and at night. The first time, the current size is taken as the reference.
 * Answers the sizes before and after, in bytes, when it rebuilt.
 */
export async function rebuildListIndexIfGrown(db: Pick<Db, 'kind' | 'query' | 'exec'>): Promise<{ before: number; after: number } | null> {
  const { rows } = await db.query<{ size: number; rebuilt: number | null }>(
    "SELECT pg_relation_size('leads_list_idx') AS size, list_index_bytes AS rebuilt FROM lead_writes",
  );
  const { size, rebuilt } = rows[0]!;
  if (rebuilt === null) await recordListIndexSize(db);
  if (rebuilt === null || size <= LIST_INDEX_GROWTH * rebuilt) return null;
  await db.exec(db.kind === 'pg' ? 'REINDEX INDEX CONCURRENTLY leads_list_idx' : 'REINDEX INDEX leads_list_idx');
  return { before: size, after: await recordListIndexSize(db) };
}

/**
 * PGlite has no autovacuum. Every bulk action rewrites rows of lead_month_stats and
 * lead_select_stats (small tables: vacuumed every ten minutes, in milliseconds) and of leads (vacuumed within ten minutes of bulk
 * writes, above, and every night: it keeps the list and statistics index-only, and takes the single
 * connection for a few seconds). Bulk status changes move index entries from one status to another
 * and leave half-empty pages behind: after a day of 100,000-lead sales and resets on a million
 * leads, leads_list_idx had grown from 101 to 384 MB and the filtered page and the statistics were
 * 1.5 to 3 times slower. A weekly REINDEX (12 s there) compacts them again.
 */
export function registerMaintenanceJobs(ctx: Pick<AppContext, 'db' | 'jobs' | 'config' | 'log'>) {
  // Expired sessions, login failures past the throttling window and ended rate-limit windows serve nothing: without this those tables only grow.
  ctx.jobs.register(PURGE_AUTH_JOB, () => purgeAuthTables(ctx.db), { cron: '17 * * * *' });
  // Undo records keep two arrays per action: kept UNDO_RETENTION_DAYS, then deleted (issue 19, retention).
  ctx.jobs.register(
    PRUNE_LEAD_ACTIONS_JOB,
    async () => {
      const pruned = await pruneLeadActions(ctx.db, ctx.config.UNDO_RETENTION_DAYS);
      ctx.log.info({ pruned, days: ctx.config.UNDO_RETENTION_DAYS }, 'undo records pruned');
    },
    { cron: '45 2 * * *' },
  );
  // A server killed while writing an export leaves its unfinished file behind.
  ctx.jobs.register(
    SWEEP_EXPORT_PARTS_JOB,
    async () => {
      const removed = await exportStorage(ctx.config).sweep(ABANDONED_PART_MS);
      if (removed) ctx.log.info({ removed }, 'unfinished export files removed');
    },
    { cron: '23 * * * *', pollingIntervalSeconds: 60 },
  );
  // At start (a restart after a day of bulk writes) and at night, after the nightly vacuum.
  ctx.jobs.register(
    REBUILD_LIST_INDEX_JOB,
    async () => {
      const started = Date.now();
      const rebuilt = await rebuildListIndexIfGrown(ctx.db);
      if (rebuilt) {
        const [beforeMB, afterMB] = [rebuilt.before, rebuilt.after].map((bytes) => Math.round(bytes / 2 ** 20));
        ctx.log.info({ beforeMB, afterMB, ms: Date.now() - started }, 'leads_list_idx rebuilt');
      }
    },
    { cron: '45 3 * * *', atStart: true },
  );
  // At start (landings added while down, a build cut short) and as landings come and go.
  ctx.jobs.register(
    SEARCH_INDEXES_JOB,
    async () => {
      const started = Date.now();
      const { created, dropped } = await syncSearchIndexes(ctx.db);
      if (created.length || dropped.length) ctx.log.info({ created, dropped, ms: Date.now() - started }, 'search indexes of the form columns');
    },
    { cron: '*/10 * * * *', atStart: true },
  );
  if (ctx.db.kind === 'pg') return;
  // PGlite has no checkpointer either: without this, the WAL since the last start piles up to max_wal_size (1 GB),
  // all of it replayed at the next start after a crash (5.6 s for 249 MB on the bench database).
  // Every five minutes, as PostgreSQL's checkpoint_timeout: a checkpoint writes the buffers changed since.
  ctx.jobs.register(CHECKPOINT_JOB, () => ctx.db.exec('CHECKPOINT').then(() => undefined), { cron: '*/5 * * * *' });
  ctx.jobs.register(VACUUM_MONTH_STATS_JOB, () => ctx.db.exec('VACUUM ANALYZE lead_month_stats, lead_select_stats').then(() => undefined), {
    cron: '*/10 * * * *',
  });
  // Also at start: the bulk writes of the day may have been made before a restart.
  ctx.jobs.register(
    VACUUM_BUSY_LEADS_JOB,
    async () => {
      if (await vacuumLeadsIfBusy(ctx.db)) ctx.log.info('leads vacuumed after bulk writes');
    },
    { cron: '5-59/10 * * * *', atStart: true },
  );
  ctx.jobs.register(
    VACUUM_LEADS_JOB,
    async () => vacuumLeads(ctx.db, (await ctx.db.query<{ written: number }>('SELECT written FROM lead_writes')).rows[0]?.written ?? 0),
    { cron: '30 3 * * *' },
  );
  ctx.jobs.register(
    REINDEX_LEADS_JOB,
    async () => {
      await ctx.db.exec('REINDEX TABLE leads');
      await recordListIndexSize(ctx.db);
    },
    { cron: '0 4 * * 0' },
  );
}

export async function purgeAuthTables(db: Queryable): Promise<void> {
  await purgeExpiredSessions(db);
  await purgeOldFailures(db);
  await purgeOldPasswordLinks(db);
  await purgeRateLimits(db);
}
