import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { z } from 'zod';
import { maxSerialId } from '../../../src/api/ids';
import type { Landing } from '../../../src/api/landings/contract';
import { extractableStatus, type BookType, type exportRequest, type ExportLink } from '../../../src/api/leads/contract';
import type { Config } from '../../config';
import type { Db, Queryable } from '../../db/connection';
import { AppError, conflict, notFound, validationFailed } from '../../errors';
import type { SessionUser } from '../auth/sessions';
import { getLandings, unionColumns } from '../leads/landings';
import { Params } from '../../db/params';
import { selectionConditions } from '../leads/selection';
import { statusEvents } from '../leads/status';
import { audit } from '../audit';
import { buyerOf, lockBuyer } from '../sales/buyers';
import { claimMonth } from '../sales/months';
import type { CellValue, SheetColumn } from './cells';
import { downloadUrl, exportFilename } from './filenames';
import { s3Storage } from './s3-storage';
import { localStorage, StorageError, storageFailure, type ExportStorage } from './storage';
import { csvLinesSql } from './csv-sql';
import { readAhead, type NextBatch, type ReadBatch } from './read-ahead';
import { csvWriter, sheetWriter } from './writers';
import { copiedLines } from './copied-lines';

type ExportInput = z.output<typeof exportRequest>;

export const noLeadsSelected = () => new AppError(422, 'validation_failed', 'Merci de sélectionner des leads', { status: false });
/** Leads were chosen, but none can be sold any more: already extracted, converted or moved meanwhile. */
const nothingToSell = () =>
  new AppError(409, 'conflict', "Aucun de ces leads n'est plus disponible à la vente : ils ont déjà été extraits, convertis ou ont changé de statut");

const storages = new WeakMap<Config, ExportStorage>();

/**
 * The export store of this deployment, the one place that picks it: the S3 bucket when S3_URL is
 * set, else DATA_DIR/exports. One per configuration, so the S3 client's connections are reused.
 */
export function exportStorage(config: Config): ExportStorage {
  let storage = storages.get(config);
  if (!storage) {
    storage = config.S3_URL
      ? s3Storage({
          endpoint: config.S3_URL,
          bucket: config.S3_BUCKET!,
          region: config.S3_REGION,
          credentials: config.S3_ACCESS_KEY_ID ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY! } : undefined,
          forcePathStyle: config.S3_FORCE_PATH_STYLE,
        })
      : localStorage(join(config.dataDir, 'exports'));
    storages.set(config, storage);
  }
  return storage;
}

/** Columns of an export file: identity and date, the form columns, then where the lead came from. */
export function fileColumns(landings: Landing[]) {
  const form = unionColumns(landings);
  return {
    form,
    columns: [
      { label: 'ID', kind: 'id' },
      { label: 'Date', kind: 'datetime' },
      ...form.map((c) => ({ label: c.label, kind: c.type })),
      { label: 'Département', kind: 'code' },
      { label: 'Zone climatique', kind: 'code' },
      { label: 'Source', kind: 'select' },
      { label: 'utm_source', kind: 'text' },
      { label: 'utm_medium', kind: 'text' },
      { label: 'utm_campaign', kind: 'text' },
    ] satisfies SheetColumn[],
    row: ([id, created, data, ...origin]: FileRow): CellValue[] => [
      id,
      created,
      ...form.map((c) => {
        const v = Object.prototype.hasOwnProperty.call(data, c.key) ? data[c.key] : null;
        return v === null || v === undefined ? null : typeof v === 'number' ? v : String(v);
      }),
      ...origin,
    ],
  };
}

/** A lead as its file shows it: id, date, form values, then département, zone, source and the three utm. */
export type FileRow = [number, string, Record<string, unknown>, ...(string | null)[]];

/**
 * Sells leads: in one transaction, only the selected leads (ids, or all matching a list filter)
 * still in an extractable status the user saw become extracted (UPDATE … RETURNING, so two concurrent exports never share a lead),
 * the file is written from exactly those leads, and the export is recorded. Any failure rolls
 * everything back and drops the file.
 */
export async function extractLeads(db: Db, config: Config, user: SessionUser, landings: Landing[], req: ExportInput): Promise<ExportLink> {
  const ids = [...new Set(req.leads)];
  if (ids.length === 0 && !req.filter) throw noLeadsSelected();
  const storage = exportStorage(config);
  const token = randomBytes(32).toString('base64url');
  const filename = exportFilename(req.filename, req.bookType);
  const key = storageKey(req.bookType);
  const forCustomer = req.for_customer || null;
  const rapport = typeof req.rapport === 'number' ? req.rapport : null;
  const statuses = req.from_status && !req.filter ? [req.from_status] : [...extractableStatus.options];
  const landingIds = landings.map((l) => l.id);

  try {
    return await db.tx(async (q) => {
      if (rapport !== null && (rapport > maxSerialId || !(await q.query('SELECT 1 FROM reports WHERE id = $1', [rapport])).rows[0])) {
        throw notFound('Rapport introuvable');
      }
      const params = new Params();
      const { where, verify } = await selectionConditions(q, req.filter ? { filter: req.filter } : { leads: ids }, statuses, params);
      const exportId = (
        await q.query<{ id: number }>(
          `INSERT INTO exports (token, landing_ids, user_id, filename, book_type, for_customer, storage_key, state)
           VALUES ($1, $2::int[], $3, $4, $5, $6, $7, 'ready') RETURNING id`,
          [token, landingIds, user.id, filename, req.bookType, forCustomer, key],
        )
      ).rows[0].id;
      const buyer = await buyerOf(q, forCustomer, rapport);
      if (!buyer && req.price_cents != null) throw priceWithoutBuyer();
      if (buyer) await lockBuyer(q, buyer.id);
      // The price is fixed on the sale: the one given with the export, else the customer's default.
      const price = buyer ? (req.price_cents ?? buyer.default_price_cents) : null;
      const { rows } = await q.query<{ sold: number; skipped: number }>(
        sellSql({
          where: [...where, `l.landing_id = ANY(${params.add(landingIds)}::int[])`],
          customer: params.add(buyer?.id ?? null),
          dedupeDays: params.add(buyer?.dedupe_days ?? 0),
          soldTo: params.add(forCustomer),
          exportId: params.add(exportId),
          reportId: params.add(rapport),
          price: params.add(price),
          by: params.add(JSON.stringify({ id: user.id, name: user.name })),
        }),
        params.values,
      );
      const { sold, skipped } = rows[0];
      await verify(sold + skipped);
      if (sold === 0 && skipped > 0) throw allBoughtAlready(skipped, buyer!.dedupe_days);
      if (sold === 0) throw ids.length ? nothingToSell() : noLeadsSelected();
      await q.query('UPDATE exports SET count = $2, price_cents = $3 WHERE id = $1', [exportId, sold, price]);
      if (buyer) await claimMonth(q, buyer.id, sold, sold * price!);
      await writeFile(q, storage, key, req.bookType, landings, exportId, filename);
      await audit(q, {
        actorId: user.id,
        action: 'export',
        entity: 'leads',
        count: sold,
        details: { export_id: exportId, book_type: req.bookType, ...(skipped ? { skipped } : {}) },
      });
      return { url: downloadUrl(config, token, filename), token, filename, count: sold, skipped };
    });
  } catch (err) {
    // A file left behind (the store unreachable) is never linked to: the answer says what failed.
    await storage.remove(key).catch(() => undefined);
    throw err instanceof StorageError ? storageFailure(err, "aucun lead n'a été extrait.") : err;
  }
}

/** The export's answer: what was sold, and how many leads the buyer's dedupe window left out. */
export const exportedMessage = ({ skipped }: ExportLink) =>
  skipped === 0
    ? 'Leads extraits'
    : skipped === 1
      ? 'Leads extraits ; 1 lead écarté : ce client a déjà acheté cette personne dans sa fenêtre de dédoublonnage'
      : `Leads extraits ; ${skipped} leads écartés : ce client a déjà acheté ces personnes dans sa fenêtre de dédoublonnage`;

/** A price goes with a sale to a customer: an export that sells to none has nothing to price. */
const priceWithoutBuyer = () =>
  validationFailed({ price_cents: "Prix du lead : « Vendu à » doit nommer un client pour que l'export lui soit vendu à ce prix" });

/** Every selected lead is a person the buyer bought within its dedupe window: nothing is sold. */
const allBoughtAlready = (skipped: number, days: number) =>
  conflict(
    skipped === 1
      ? `Ce client a déjà acheté cette personne ces ${days} derniers jours : le lead n'est pas vendu`
      : `Ce client a déjà acheté ces ${skipped} personnes ces ${days} derniers jours : aucun lead n'est vendu`,
  );

/**
 * One statement sells the selection: its leads are locked (two exports never share a lead), each
 * one whose person (personOf, in SQL) the buyer bought within its dedupe window, or that repeats an
 * earlier lead of the selection, is skipped; the others become extracted under the export, each
 * with its sale (lead_sales, channel 'export') when the buyer is a customer. Answers how many were
 * sold and skipped.
 */
function sellSql(p: { where: string[]; customer: string; dedupeDays: string; soldTo: string; exportId: string; reportId: string; price: string; by: string }) {
  const customer = `${p.customer}::int IS NOT NULL`;
  return `
    WITH chosen AS (
      SELECT l.id, l.landing_id, l.entry_status AS prev,
             CASE WHEN ${customer} THEN person_phone(l.data ->> landing_column_key(ld.columns, 'phone')) END AS phone,
             CASE WHEN ${customer} THEN person_email(l.data ->> landing_column_key(ld.columns, 'email')) END AS email
        FROM leads l JOIN landings ld ON ld.id = l.landing_id
       WHERE ${p.where.join(' AND ')}
       FOR UPDATE OF l
    ), judged AS (
      SELECT c.id, c.landing_id, c.prev, c.phone, c.email, ${p.dedupeDays}::int > 0 AND (
             (c.phone IS NOT NULL AND row_number() OVER (PARTITION BY c.phone ORDER BY c.id) > 1)
          OR (c.email IS NOT NULL AND row_number() OVER (PARTITION BY c.email ORDER BY c.id) > 1)
          OR ((c.phone IS NOT NULL OR c.email IS NOT NULL) AND EXISTS (
                SELECT 1 FROM lead_sales s
                 WHERE s.customer_id = ${p.customer}::int AND s.sold_at > now() - make_interval(days => ${p.dedupeDays}::int)
                   AND (s.phone = c.phone OR s.email = c.email)))) AS bought
        FROM chosen c
    ), sold AS (
      UPDATE leads l SET entry_status = 'extracted', sold_to = ${p.soldTo}, export_id = ${p.exportId},
             rapport_id = COALESCE(${p.reportId}::int, l.rapport_id), updated_at = now()
        FROM judged j WHERE l.id = j.id AND NOT j.bought
      RETURNING l.id, l.landing_id, j.prev, j.phone, j.email
    ), told AS (${statusEvents('sold', 'prev', `'extracted'`, p.by)}
    ), sales AS (
      INSERT INTO lead_sales (lead_id, customer_id, rule_id, report_id, export_id, channel, price_cents, phone, email, sold_at)
      SELECT s.id, ${p.customer}::int, (SELECT rule_id FROM reports WHERE id = ${p.reportId}::int), ${p.reportId}::int, ${p.exportId}, 'export',
             ${p.price}::int, s.phone, s.email, now()
        FROM sold s WHERE ${customer}
      RETURNING id, lead_id, customer_id, rule_id
    ), sold_told AS (
      INSERT INTO events (type, audience, data)
      SELECT 'lead.sold', 'admins', jsonb_build_object('lead_id', s.id, 'landing_id', s.landing_id, 'sale_id', a.id,
               'customer', jsonb_build_object('id', c.id, 'name', c.name),
               'rule', (SELECT jsonb_build_object('id', r.id, 'name', r.name) FROM rules r WHERE r.id = a.rule_id), 'channel', 'export')
        FROM sales a JOIN sold s ON s.id = a.lead_id JOIN customers c ON c.id = a.customer_id
       ORDER BY s.id
    )
    SELECT (SELECT count(*) FROM sold)::int AS sold, (SELECT count(*) FROM judged WHERE bought)::int AS skipped`;
}

export const storageKey = (type: BookType) => `${Date.now()}-${randomBytes(12).toString('hex')}.${type}`;

/** Writes the files of exports recorded without one (the demo's past sales); answers how many. */
export async function writeMissingExportFiles(q: Queryable, storage: ExportStorage): Promise<number> {
  const { rows } = await q.query<{ id: number; book_type: BookType; filename: string; landing_ids: number[] }>(
    `SELECT id, book_type, filename, landing_ids FROM exports WHERE storage_key IS NULL AND state = 'ready' ORDER BY id`,
  );
  for (const e of rows) {
    const key = storageKey(e.book_type);
    await writeFile(q, storage, key, e.book_type, await getLandings(q, e.landing_ids), e.id, e.filename);
    await q.query('UPDATE exports SET storage_key = $2 WHERE id = $1', [e.id, key]);
  }
  return rows.length;
}

/** A lead as a file row: id, Paris date, form values, then département, zone, source and the three utm. */
export const fileRowSql = `json_build_array(id, to_char(created_at AT TIME ZONE 'Europe/Paris', 'YYYY-MM-DD HH24:MI:SS'), data,
  departement, zone_climatique, source, utm_source, utm_medium, utm_campaign)`;

/**
 * The leads of a file's next batch, after lead id `after` and at most `limit`: `from`, a FROM item
 * over leads named `l`, its values written in it (COPY takes no parameters), and `last`, the
 * batch's last lead id when it is known before the batch is read; null when there are no more.
 */
export type LeadBatches = (after: number, limit: number) => NextBatch;

/** The leads sold under an export. */
const leadsOfExport =
  (exportId: number): LeadBatches =>
  (after, limit) => ({ from: `(SELECT * FROM leads WHERE export_id = ${exportId} AND id > ${after} ORDER BY id LIMIT ${limit}) l` });

/** Leads by id, `ids` sorted ascending: each batch is a primary-key lookup, whatever the selection. */
export function leadsByIds(ids: number[]): LeadBatches {
  let pos = 0;
  return (after, limit) => {
    while (pos < ids.length && ids[pos]! <= after) pos++;
    if (pos >= ids.length) return null;
    const batch = ids.slice(pos, pos + limit);
    return { from: `(SELECT * FROM leads WHERE id = ANY('{${batch.join(',')}}'::bigint[])) l`, last: batch[batch.length - 1] };
  };
}

async function writeFile(q: Queryable, storage: ExportStorage, key: string, type: BookType, landings: Landing[], exportId: number, title: string) {
  await writeLeadsFile(q, storage, key, type, landings, title, leadsOfExport(exportId));
}

/**
 * Leads per COPY of a csv file on PostgreSQL, each batch one more statement to plan and one more
 * round trip (with the lines read as text, the server's CPU for a 100,000-lead custom export was
 * 1.04–1.20 s by 2,000, 0.82–0.97 s by 10,000). PGlite keeps the writer's 2,000: each statement
 * holds its one connection, and every other request waits for it.
 */
const PG_CSV_BATCH = 10_000;

/** What writeLeadsFile hears and may do beside writing. */
interface WriteOptions {
  /** Hears how many leads were written so far, after each batch. */
  onRows?: (written: number) => Promise<void>;
  /**
   * Batches read at once while one is written, when their bounds are known before they are read
   * (LeadBatches' `last`): more than one only on a pool of connections, each read holding one.
   */
  readers?: number;
}

/**
 * Streams leads into storage, batch by batch in id order. The file is published only when
 * complete, dropped on any failure. A csv file's lines are written by the database (csv-sql.ts)
 * and come as bytes (COPY … TO STDOUT, copied-lines.ts); the other formats' rows are read as one
 * JSON value per batch (decoding ten fields of every row cost PGlite's client a second per
 * 100,000 leads).
 */
export async function writeLeadsFile(
  q: Queryable,
  storage: ExportStorage,
  key: string,
  type: BookType,
  landings: Landing[],
  title: string,
  batches: LeadBatches,
  { onRows, readers = 1 }: WriteOptions = {},
) {
  const columns = fileColumns(landings);
  const upload = await storage.open(key);
  try {
    let read: (from: string) => Promise<ReadBatch>;
    let limit: number;
    let end: () => Promise<void>;
    if (type === 'csv') {
      const writer = csvWriter(
        upload.stream,
        columns.columns.map((c) => c.label),
      );
      const lines = csvLinesSql(columns.form);
      limit = q.parallel ? PG_CSV_BATCH : writer.batch;
      end = writer.end;
      read = async (from) => {
        const copied = copiedLines();
        await q.copyTo(`SELECT count(*), max(l.id), string_agg(${lines.line}, '' ORDER BY l.id) FROM ${from} ${lines.join}`, copied.write);
        const { count, last, lines: bytes } = copied.end();
        return last === null ? null : { count, last, write: () => writer.lines(bytes) };
      };
    } else {
      const writer = sheetWriter(type, upload.stream, columns.columns, title);
      limit = writer.batch;
      end = () => writer.end();
      read = async (from) => {
        const rows = (await q.query<{ rows: FileRow[] | null }>(`SELECT json_agg(${fileRowSql} ORDER BY id) AS rows FROM ${from}`)).rows[0]!.rows;
        return rows === null ? null : { count: rows.length, last: rows[rows.length - 1]![0], write: () => writer.rows(rows.map(columns.row)) };
      };
    }
    // The database (PostgreSQL, or PGlite's worker thread) reads the next batches while one is written.
    await readAhead((after) => batches(after, limit), read, readers, onRows);
    await end();
    await upload.finish();
  } catch (err) {
    await upload.abort();
    throw err;
  }
}
