import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/connection';
import { conflict } from '../../errors';
import { audit } from '../audit';
import { exportStorage } from '../exports/extract';
import { deletedEvents } from '../leads/delete';
import { writeArchive } from './files';

/** Leads read, written and deleted at a time: each deletion is a transaction of its own, so no lock is held long. */
export const ARCHIVE_BATCH = 5000;

/** The rows of a month, Paris time, `$2` its first day. */
const inMonth = `created_at >= $2::date::timestamp AT TIME ZONE 'Europe/Paris'
  AND created_at < ($2::date + interval '1 month')::timestamp AT TIME ZONE 'Europe/Paris'`;

/** A lead and what hangs on it (the tables whose rows go with it, ON DELETE CASCADE), as one line of JSON. */
const archiveLine = `json_build_object('lead', to_jsonb(l),
  'lead_sales', coalesce((SELECT jsonb_agg(to_jsonb(t)) FROM lead_sales t WHERE t.lead_id = l.id), '[]'),
  'lead_routings', coalesce((SELECT jsonb_agg(to_jsonb(t)) FROM lead_routings t WHERE t.lead_id = l.id), '[]'),
  'deliveries', coalesce((SELECT jsonb_agg(to_jsonb(t)) FROM deliveries t WHERE t.lead_id = l.id), '[]'),
  'webhook_held', coalesce((SELECT jsonb_agg(to_jsonb(t)) FROM webhook_held t WHERE t.lead_id = l.id), '[]'))::text`;

const retentionOff = () => conflict("L'archivage des anciens leads est désactivé : définissez RETENTION_MONTHS (en mois) pour l'activer.");

type RetentionContext = Pick<AppContext, 'db' | 'config' | 'log'>;

/**
 * Archives every month older than RETENTION_MONTHS whole months before the current one (Paris
 * time), oldest first, and finishes a month a stopped run left half removed. Answers the months
 * archived ('YYYY-MM') and their leads.
 */
export async function archiveOldLeads(ctx: RetentionContext, actorId: number | null): Promise<{ months: string[]; leads: number }> {
  const keep = ctx.config.RETENTION_MONTHS;
  if (!keep) throw retentionOff();
  const { rows } = await ctx.db.query<{ month: string }>(
    `SELECT to_char(m, 'YYYY-MM') AS month FROM generate_series(
        (SELECT lead_month(min(created_at))::timestamp FROM leads),
        date_trunc('month', now() AT TIME ZONE 'Europe/Paris') - make_interval(months => $1 + 1), interval '1 month') AS m
     UNION SELECT to_char(month, 'YYYY-MM') FROM lead_archives WHERE state = 'deleting'
     ORDER BY month`,
    [keep],
  );
  const months: string[] = [];
  let leads = 0;
  for (const { month } of rows) {
    const n = await archiveMonth(ctx, month, actorId);
    if (n === 0) continue;
    months.push(month);
    leads += n;
  }
  return { months, leads };
}

/**
 * One month, all or nothing: a file per landing with leads that month (every file written
 * before any lead is removed; a failed write removes the month's files and leaves its leads), the
 * files listed in one transaction, then the leads deleted 5,000 at a time, each batch its own
 * transaction (their sales, routings and deliveries go with them; the month statistics follow by
 * their trigger; its `leads.deleted` events take them off the screens that list them). A run
 * stopped while deleting leaves the month 'deleting': the next goes on. A landing whose month was
 * restored is left alone. Answers the leads removed.
 */
export async function archiveMonth(ctx: RetentionContext, month: string, actorId: number | null): Promise<number> {
  const { db } = ctx;
  const storage = exportStorage(ctx.config);
  const first = `${month}-01`;
  const { rows: landings } = await db.query<{ id: number; name: string; state: string | null }>(
    `SELECT l.id, l.name, a.state FROM landings l LEFT JOIN lead_archives a ON a.landing_id = l.id AND a.month = $1::date
      WHERE a.state IS DISTINCT FROM 'restored' ORDER BY l.id`,
    [first],
  );
  const pending: Array<{ landing: number; ids: number[] }> = [];
  const written: Array<{ landing: (typeof landings)[number]; key: string; leads: number; bytes: number }> = [];
  try {
    for (const landing of landings) {
      const ids = (await db.query<{ id: number }>(`SELECT id FROM leads WHERE landing_id = $1 AND ${inMonth} ORDER BY id`, [landing.id, first])).rows.map(
        (r) => r.id,
      );
      if (landing.state === 'deleting') pending.push({ landing: landing.id, ids });
      if (landing.state !== null || ids.length === 0) continue;
      const key = `archive-${month}-landing-${landing.id}-${randomBytes(6).toString('hex')}.jsonl.gz`;
      const bytes = await writeArchive(storage, key, batchesOf(db, ids));
      written.push({ landing, key, leads: ids.length, bytes });
      pending.push({ landing: landing.id, ids });
    }
  } catch (err) {
    for (const file of written) await storage.remove(file.key).catch(() => undefined);
    throw err;
  }
  if (written.length) {
    await db.tx(async (q) => {
      for (const f of written) {
        await q.query(
          `INSERT INTO lead_archives (month, landing_id, landing_name, storage_key, leads, bytes, state) VALUES ($1::date, $2, $3, $4, $5, $6, 'deleting')`,
          [first, f.landing.id, f.landing.name, f.key, f.leads, f.bytes],
        );
      }
      const count = written.reduce((n, f) => n + f.leads, 0);
      await audit(q, { actorId, action: 'retention.archive', entity: 'leads', count, details: { month, files: written.length } });
    });
  }
  let removed = 0;
  for (const { landing, ids } of pending) {
    for (let at = 0; at < ids.length; at += ARCHIVE_BATCH) {
      const batch = ids.slice(at, at + ARCHIVE_BATCH);
      removed += await db.tx(async (q) => {
        const { rows } = await q.query<{ n: number }>(
          `WITH gone AS (DELETE FROM leads WHERE id = ANY($1::bigint[]) RETURNING id, landing_id, entry_status),
                told AS (${deletedEvents('gone', '(SELECT jsonb_build_object($$id$$, id, $$name$$, name) FROM users WHERE id = $2::int)')})
           SELECT count(*)::int AS n FROM gone`,
          [batch, actorId],
        );
        return rows[0]!.n;
      });
    }
    await db.query(`UPDATE lead_archives SET state = 'archived' WHERE month = $1::date AND landing_id = $2`, [first, landing]);
  }
  if (removed) ctx.log.info({ month, leads: removed, files: written.length }, 'leads archived');
  return removed;
}

async function* batchesOf(q: Queryable, ids: number[]): AsyncGenerator<string[]> {
  for (let at = 0; at < ids.length; at += ARCHIVE_BATCH) {
    const { rows } = await q.query<{ line: string }>(`SELECT ${archiveLine} AS line FROM leads l WHERE l.id = ANY($1::bigint[]) ORDER BY l.id`, [
      ids.slice(at, at + ARCHIVE_BATCH),
    ]);
    yield rows.map((r) => r.line);
  }
}
