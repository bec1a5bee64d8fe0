import type { LiveEventOf } from '../../../src/api/events/contract';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/connection';
import { notFound } from '../../errors';
import { audit } from '../audit';
import { writeEvents } from '../events/outbox';
import { exportStorage } from '../exports/extract';
import { ARCHIVE_BATCH } from './archive';
import { readArchive } from './files';

/**
 * How each archived table comes back: rows whose `required` parent is gone since are dropped (as
 * its ON DELETE CASCADE would have done), `optional` references to a row gone since become NULL
 * (ON DELETE SET NULL). A row already there (a month restored twice, a run stopped halfway) is kept.
 */
const tables = [
  { table: 'leads', required: { landing_id: 'landings' }, optional: { export_id: 'exports', rapport_id: 'reports' } },
  { table: 'lead_sales', required: { lead_id: 'leads', customer_id: 'customers' }, optional: { rule_id: 'rules', report_id: 'reports', export_id: 'exports' } },
  { table: 'lead_routings', required: { lead_id: 'leads' }, optional: { rule_id: 'rules', report_id: 'reports' } },
  { table: 'deliveries', required: { lead_id: 'leads', report_id: 'reports' }, optional: {} },
  { table: 'webhook_held', required: { lead_id: 'leads', report_id: 'reports', customer_id: 'customers' }, optional: {} },
] as const;

type Table = (typeof tables)[number]['table'];
type Line = Record<Exclude<Table, 'leads'>, unknown[]> & { lead: { id: number; convert: number | null } };

const exists = (column: string, parent: string) => `EXISTS (SELECT FROM ${parent} p WHERE p.id = (v->>'${column}')::bigint)`;

function insertSql({ table, required, optional }: (typeof tables)[number]): string {
  // A lead's conversion link is set once every lead of the month is back (its copy may come later).
  const nulls = Object.entries(optional).map(([column, parent]) => `'${column}', CASE WHEN ${exists(column, parent)} THEN v->'${column}' END`);
  if (table === 'leads') nulls.push(`'convert', NULL`);
  const kept = Object.entries(required).map(([column, parent]) => exists(column, parent));
  return `INSERT INTO ${table} SELECT r.* FROM jsonb_array_elements($1::jsonb) AS a(v),
            jsonb_populate_record(NULL::${table}, v || jsonb_build_object(${nulls.join(', ')})) AS r
          WHERE ${kept.join(' AND ')} ON CONFLICT DO NOTHING`;
}

/**
 * Brings an archived month back ('YYYY-MM'): every landing's file, in one transaction (all or
 * nothing), each lead with its id, its sales, routings and deliveries; the month statistics follow
 * by their trigger, the lists by one `leads.restored` event per landing and status. The files are removed once it has committed, and the month's listing says
 * 'restored', which the retention job then leaves in the database. Answers the leads restored.
 */
export async function restoreMonth(ctx: Pick<AppContext, 'db' | 'config' | 'log'>, month: string, actorId: number | null): Promise<number> {
  const storage = exportStorage(ctx.config);
  const first = `${month}-01`;
  return ctx.db.tx(async (q) => {
    const { rows: files } = await q.query<{ storage_key: string }>(
      `SELECT storage_key FROM lead_archives WHERE month = $1::date AND state <> 'restored' ORDER BY landing_id FOR UPDATE`,
      [first],
    );
    if (!files.length) throw notFound(`Aucune archive de leads pour ${month}.`);
    const back = new Map<string, Batch>();
    const converts: Array<[number, number]> = [];
    for (const { storage_key } of files) {
      for await (const lines of readArchive<Line>(storage, storage_key, ARCHIVE_BATCH)) {
        for (const b of await insertLeads(
          q,
          lines.map((l) => l.lead),
        ))
          addBatch(back, b);
        for (const { table } of tables.slice(1))
          await insertRows(
            q,
            table,
            lines.flatMap((l) => l[table as Exclude<Table, 'leads'>]),
          );
        for (const { lead } of lines) if (lead.convert !== null) converts.push([lead.id, lead.convert]);
      }
    }
    if (converts.length) {
      await q.query(
        `UPDATE leads l SET convert = c.copy FROM unnest($1::bigint[], $2::bigint[]) AS c(id, copy)
          WHERE l.id = c.id AND l.convert IS NULL AND EXISTS (SELECT FROM leads p WHERE p.id = c.copy)`,
        [converts.map((c) => c[0]), converts.map((c) => c[1])],
      );
    }
    await q.query(`UPDATE lead_archives SET state = 'restored' WHERE month = $1::date AND state <> 'restored'`, [first]);
    const by = actorId === null ? null : ((await q.query<{ id: number; name: string }>('SELECT id, name FROM users WHERE id = $1', [actorId])).rows[0] ?? null);
    const batches = [...back.values()].sort((a, b) => a.landing_id - b.landing_id || a.first_id - b.first_id);
    await writeEvents(
      q,
      'leads.restored',
      batches.map((b) => ({ ...b, by })),
      'all',
    );
    const restored = batches.reduce((n, b) => n + b.count, 0);
    await audit(q, { actorId, action: 'retention.restore', entity: 'leads', count: restored, details: { month, files: files.length } });
    q.afterCommit(async () => {
      for (const { storage_key } of files) {
        await storage.remove(storage_key).catch((err: unknown) => ctx.log.warn({ key: storage_key, err }, 'restored archive file not removed'));
      }
    });
    ctx.log.info({ month, leads: restored }, 'archived leads restored');
    return restored;
  });
}

/** What came back of each landing and status: their `leads.restored` event, as an import's (a count and the id range). */
type Batch = Omit<LiveEventOf<'leads.restored'>['data'], 'by'>;

function addBatch(back: Map<string, Batch>, b: Batch) {
  const key = `${b.landing_id}/${b.entry_status}`;
  const seen = back.get(key);
  back.set(key, seen ? { ...b, count: seen.count + b.count, first_id: Math.min(seen.first_id, b.first_id), last_id: Math.max(seen.last_id, b.last_id) } : b);
}

/** Inserts archived leads; answers those inserted, by landing and status. */
async function insertLeads(q: Tx, leads: unknown[]): Promise<Batch[]> {
  if (!leads.length) return [];
  const { rows } = await q.query<Batch>(
    `WITH back AS (${insertSql(tables[0])} RETURNING id, landing_id, entry_status)
     SELECT landing_id, entry_status, count(*)::int AS count, min(id)::bigint AS first_id, max(id)::bigint AS last_id FROM back GROUP BY landing_id, entry_status`,
    [JSON.stringify(leads)],
  );
  return rows;
}

async function insertRows(q: Tx, table: Table, rows: unknown[]): Promise<number> {
  if (!rows.length) return 0;
  return (await q.query(insertSql(tables.find((t) => t.table === table)!), [JSON.stringify(rows)])).rowCount;
}
