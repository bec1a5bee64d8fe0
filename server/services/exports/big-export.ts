import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { BigExportJob, bigExportQuery } from '../../../src/api/exports/contract';
import type { EntryStatus } from '../../../src/api/leads/contract';
import type { AppContext } from '../../context';
import { defineQueue } from '../jobs';
import type { Config } from '../../config';
import type { Queryable } from '../../db/connection';
import { AppError, notFound } from '../../errors';
import type { SessionUser } from '../auth/sessions';
import { audit } from '../audit';
import { writeEvents } from '../events/outbox';
import { raiseAlert } from '../alerts/raise';
import { getLandings } from '../leads/landings';
import { exportStorage, leadsByIds, storageKey, writeLeadsFile } from './extract';
import { exportFilename } from './filenames';
import { StorageError, storageFailure } from './storage';
import { exportColumns, toExportItem, type ExportRow } from './history';

export const BIG_EXPORT_JOB = defineQueue<{ id: number }>('exports.big');

type BigExportInput = z.output<typeof bigExportQuery>;

/** Rows a spreadsheet holds below its header. */
const XLSX_MAX_ROWS = 1_048_575;
/** A job whose heartbeat stopped this long ago died with its server: its user may start another. */
const STALE_MINUTES = 5;
/** How often the running job records its progress. */
const PROGRESS_MS = 250;
/** How often the running job says it is alive, whatever it is doing (listing the ids of a year takes seconds). */
const HEARTBEAT_MS = 10_000;
/** On PostgreSQL, a running job silent this long died with its instance: it is started again. */
const INTERRUPTED_SECONDS = 45;
/** Runs of one export before it is given up (one that brings its server down every time). */
const MAX_ATTEMPTS = 3;
export const BIG_EXPORT_RESUME_JOB = defineQueue('exports.big.resume');

interface JobRow {
  id: number;
  user_id: number;
  state: BigExportJob['state'];
  landing_ids: number[];
  statuses: EntryStatus[];
  start_day: string;
  end_day: string;
  book_type: BigExportJob['format'];
  total: number | null;
  written: number;
  created: string;
  finished: string | null;
  error: string | null;
  export_id: number | null;
}

const iso = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
const jobColumns = `b.id, b.user_id, b.state, b.landing_ids, b.statuses, b.start_day::text AS start_day, b.end_day::text AS end_day, b.book_type,
  b.total, b.written, ${iso('b.created_at')} AS created, ${iso('b.finished_at')} AS finished, b.error, b.export_id`;

async function jobs(db: Queryable, config: Config, where: string, values: unknown[]): Promise<BigExportJob[]> {
  const { rows } = await db.query<JobRow & { export: ExportRow | null }>(
    `SELECT ${jobColumns}, (SELECT row_to_json(x) FROM (SELECT ${exportColumns} FROM exports e WHERE e.id = b.export_id) x) AS export
       FROM big_exports b WHERE ${where} ORDER BY b.created_at DESC, b.id DESC`,
    values,
  );
  return rows.map((r) => ({
    id: r.id,
    state: r.state,
    landings: r.landing_ids,
    status: r.statuses,
    start: r.start_day,
    end: r.end_day,
    format: r.book_type,
    total: r.total,
    written: r.written,
    created: r.created,
    finished: r.finished,
    error: r.error,
    export: r.export ? toExportItem(config, r.export) : null,
  }));
}

export async function getBigExport(db: Queryable, config: Config, id: number): Promise<BigExportJob> {
  const [job] = await jobs(db, config, 'b.id = $1', [id]);
  if (!job) throw notFound('Export personnalisé introuvable');
  return job;
}

/** The user's jobs of the last 24 hours, newest first. */
export const listBigExports = (db: Queryable, config: Config, userId: number) =>
  jobs(db, config, `b.user_id = $1 AND b.created_at > now() - interval '24 hours'`, [userId]);

/**
 * Queues a custom export; one at a time per user, which the unique index on running jobs
 * enforces across instances. A job whose server died (no heartbeat for STALE_MINUTES) is given
 * up first, so it never blocks its user.
 */
export async function requestBigExport(ctx: AppContext, user: SessionUser, input: BigExportInput): Promise<BigExportJob> {
  const { db, config } = ctx;
  await getLandings(db, input.landings);
  await db.tx((q) =>
    failBigExports(
      q,
      `user_id = $1 AND state IN ('queued', 'running') AND heartbeat < now() - make_interval(mins => $2)`,
      [user.id, STALE_MINUTES],
      "Interrompu : le serveur s'est arrêté pendant la génération",
    ),
  );
  let id: number;
  try {
    ({ id } = (
      await db.query<{ id: number }>(
        `INSERT INTO big_exports (user_id, landing_ids, statuses, start_day, end_day, book_type) VALUES ($1, $2::int[], $3::text[], $4, $5, $6) RETURNING id`,
        [user.id, input.landings, input.status, input.start, input.end, input.format],
      )
    ).rows[0]!);
  } catch (err) {
    if ((err as { code?: string }).code !== '23505') throw err;
    const [running] = await jobs(db, config, `b.user_id = $1 AND b.state IN ('queued', 'running')`, [user.id]);
    throw new AppError(409, 'conflict', "Un export personnalisé est déjà en cours de génération : attendez sa fin avant d'en demander un autre", {
      job: running ?? null,
    });
  }
  // The answer is the job as accepted: read after the send, it was at times already running.
  const accepted = await getBigExport(db, config, id);
  await ctx.jobs.send(BIG_EXPORT_JOB, { id });
  return accepted;
}

/**
 * Gives up the custom exports `where` names (its parameters `values`) with `error`, and raises
 * 'export_failed' for each, in the transaction `q`.
 */
async function failBigExports(q: Queryable, where: string, values: unknown[], error: string): Promise<void> {
  const { rows } = await q.query<{ id: number; user_id: number }>(
    `UPDATE big_exports SET state = 'failed', error = $${values.length + 1}, finished_at = now() WHERE ${where} RETURNING id, user_id`,
    [...values, error],
  );
  for (const job of rows) await raiseAlert(q, { kind: 'export_failed', exportId: job.id, userId: job.user_id });
}

/** Primary keys per query when gathering a job's leads. */
const ID_SLICE = 100_000;

/**
 * The ids of the job's leads in order, gathered slice by slice of the primary key: PGlite runs a
 * query on the server's one thread, and a single query over a year held every other request for
 * 0.7–1 s.
 */
async function matchingIds(db: Queryable, job: JobRow): Promise<number[]> {
  const { lo, hi } = (await db.query<{ lo: number | null; hi: number | null }>('SELECT min(id)::int8 AS lo, max(id)::int8 AS hi FROM leads')).rows[0]!;
  const ids: number[] = [];
  for (let from = Number(lo); lo !== null && from <= Number(hi); from += ID_SLICE) {
    const { rows } = await db.query<{ ids: string | null }>(
      `SELECT string_agg(id::text, ',' ORDER BY id) AS ids FROM leads
        WHERE id >= $5 AND id < $6 AND landing_id = ANY($1::int[]) AND entry_status = ANY($2::text[])
          AND created_at >= $3::date::timestamp AT TIME ZONE 'Europe/Paris' AND created_at < ($4::date + 1)::timestamp AT TIME ZONE 'Europe/Paris'`,
      [job.landing_ids, job.statuses, job.start_day, job.end_day, from, from + ID_SLICE],
    );
    for (const id of rows[0]!.ids?.split(',') ?? []) ids.push(Number(id));
  }
  return ids;
}

/**
 * Writes a custom export: the matching leads' ids first (one index pass, and the total for the
 * progress bar), then the file streamed batch by batch by primary key, then the export row with
 * big_export = true. No lead changes status. A failure leaves no file and says why.
 */
export async function runBigExport(ctx: AppContext, id: number): Promise<void> {
  const { db, config, log } = ctx;
  const claimed = await db.query<JobRow>(
    `UPDATE big_exports b SET state = 'running', heartbeat = now(), attempts = attempts + 1 WHERE id = $1 AND state = 'queued' RETURNING ${jobColumns}`,
    [id],
  );
  const job = claimed.rows[0];
  if (!job) return; // given up meanwhile, or already taken
  const storage = exportStorage(config);
  const key = storageKey(job.book_type);
  const alive = setInterval(() => {
    db.query(`UPDATE big_exports SET heartbeat = now() WHERE id = $1 AND state = 'running'`, [id]).catch(() => undefined);
  }, HEARTBEAT_MS);
  try {
    const landings = await getLandings(db, job.landing_ids);
    const ids = await matchingIds(db, job);
    await db.query('UPDATE big_exports SET total = $2, heartbeat = now() WHERE id = $1', [id, ids.length]);
    if (ids.length === 0) {
      await db.query(`UPDATE big_exports SET state = 'done', finished_at = now() WHERE id = $1`, [id]);
      return;
    }
    if (job.book_type === 'xlsx' && ids.length > XLSX_MAX_ROWS) {
      throw new AppError(422, 'validation_failed', `${ids.length} leads : un fichier xlsx en contient au plus ${XLSX_MAX_ROWS}, choisissez le format csv`);
    }
    const filename = exportFilename(`export-personnalise_${job.start_day}_${job.end_day}`, job.book_type);
    let reported = Date.now();
    await writeLeadsFile(db, storage, key, job.book_type, landings, filename, leadsByIds(ids), {
      // On PostgreSQL two connections read the next two batches while one is written.
      readers: db.parallel ? 2 : 1,
      onRows: async (written) => {
        if (Date.now() - reported < PROGRESS_MS) return;
        reported = Date.now();
        await db.query('UPDATE big_exports SET written = $2, heartbeat = now() WHERE id = $1', [id, written]);
      },
    });
    await db.tx(async (q) => {
      const exportId = (
        await q.query<{ id: number }>(
          `INSERT INTO exports (token, landing_ids, user_id, filename, book_type, count, big_export, state, storage_key)
           VALUES ($1, $2::int[], $3, $4, $5, $6, true, 'ready', $7) RETURNING id`,
          [randomBytes(32).toString('base64url'), job.landing_ids, job.user_id, filename, job.book_type, ids.length, key],
        )
      ).rows[0]!.id;
      await q.query(`UPDATE big_exports SET state = 'done', written = $2, export_id = $3, finished_at = now() WHERE id = $1`, [id, ids.length, exportId]);
      await writeEvents(q, 'export.ready', [{ export_id: exportId, user_id: job.user_id }], 'user', job.user_id);
      await audit(q, {
        actorId: job.user_id,
        action: 'export.big',
        entity: 'leads',
        count: ids.length,
        details: { export_id: exportId, big_export_id: id, book_type: job.book_type },
      });
    });
  } catch (thrown) {
    await storage.remove(key).catch(() => undefined);
    const err = thrown instanceof StorageError ? storageFailure(thrown, "l'export n'a pas été créé.") : thrown;
    if (!(err instanceof AppError) || err.status >= 500) log.error({ err: thrown, bigExport: id }, 'big export failed');
    const message = err instanceof AppError ? err.message : "Impossible de générer l'export.";
    await db.tx((q) => failBigExports(q, `id = $1`, [id], message));
  } finally {
    clearInterval(alive);
  }
}

/**
 * Custom exports whose server died while they ran are queued again, from the start (nothing of
 * theirs was kept and no lead changed status), or given up with a message after MAX_ATTEMPTS
 * runs. Died: on PGlite, whose database one process alone opens, every job that ran before this
 * process started; on PostgreSQL, every job silent for INTERRUPTED_SECONDS. At start, then every minute.
 */
export async function resumeInterruptedBigExports(ctx: Pick<AppContext, 'db' | 'jobs'>, startedAt: Date): Promise<number> {
  const { db, jobs } = ctx;
  const interrupted = `state = 'running' AND heartbeat < coalesce($1::timestamptz, now() - make_interval(secs => $2))`;
  const since = [db.parallel ? null : startedAt.toISOString(), INTERRUPTED_SECONDS];
  const resumed = await db.tx(async (q) => {
    await failBigExports(
      q,
      `${interrupted} AND attempts >= $3`,
      [...since, MAX_ATTEMPTS],
      `Interrompu : le serveur s'est arrêté pendant la génération, ${MAX_ATTEMPTS} fois. Choisissez une période plus courte ou prévenez un administrateur.`,
    );
    const { rows } = await q.query<{ id: number }>(
      `UPDATE big_exports SET state = 'queued', written = 0, total = NULL, heartbeat = now() WHERE ${interrupted} RETURNING id`,
      since,
    );
    for (const { id } of rows) await jobs.sendIn(q, BIG_EXPORT_JOB, { id });
    return rows.length;
  });
  if (resumed) jobs.wake(BIG_EXPORT_JOB);
  return resumed;
}

export function registerBigExportJobs(ctx: AppContext): void {
  const startedAt = new Date();
  ctx.jobs.register(BIG_EXPORT_JOB, ({ id }) => runBigExport(ctx, id));
  ctx.jobs.register(BIG_EXPORT_RESUME_JOB, () => resumeInterruptedBigExports(ctx, startedAt).then(() => undefined), {
    cron: '* * * * *',
    atStart: true,
    pollingIntervalSeconds: 30,
  });
}
