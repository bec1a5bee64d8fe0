import { PassThrough } from 'node:stream';
import type { Landing } from '../../../src/api/landings/contract';
import type { BookType } from '../../../src/api/leads/contract';
import type { DeliveryAttempt, Report, ReportsResponse } from '../../../src/api/reports/contract';
import type { Config } from '../../config';
import type { Queryable } from '../../db/connection';
import { notFound } from '../../errors';
import { audit } from '../audit';
import type { CellValue } from '../exports/cells';
import { fileColumns, fileRowSql, type FileRow } from '../exports/extract';
import { attachmentHeader, exportFilename } from '../exports/filenames';
import { contentTypes, sheetWriter } from '../exports/writers';
import { getLandings } from '../leads/landings';

const reportNotFound = () => notFound('Rapport introuvable');

/** The reports of a rule (deleted rules keep theirs), newest first, with the latest export made from one of them. */
export async function listReports(db: Queryable, config: Config, ruleId: number): Promise<ReportsResponse> {
  const rule = (
    await db.query<ReportsResponse['rule']>(
      'SELECT r.id, r.name, r.customer_id, c.name AS customer_name, r.leads_number FROM rules r JOIN customers c ON c.id = r.customer_id WHERE r.id = $1',
      [ruleId],
    )
  ).rows[0];
  if (!rule) throw notFound('Règle introuvable');
  // A report holds its sales (lead_sales): a lead sold on two days is in both days' reports; its
  // amount is what its sales still standing sold for.
  const { rows } = await db.query<Report>(
    `SELECT rep.id, to_char(rep.date, 'YYYY-MM-DD') AS date, rep.leads_number, rep.zip, rep.rule_id,
            coalesce(s.leads, '[]') AS leads, coalesce(s.count, 0) AS count, coalesce(s.returned, 0) AS returned, coalesce(s.amount_cents, 0) AS amount_cents
       FROM reports rep
       LEFT JOIN LATERAL (SELECT json_agg(ls.lead_id ORDER BY ls.sold_at, ls.id) AS leads, count(*)::int AS count,
                                 count(*) FILTER (WHERE ls.returned_at IS NOT NULL)::int AS returned,
                                 (sum(ls.price_cents) FILTER (WHERE ls.returned_at IS NULL))::float8 AS amount_cents
                            FROM lead_sales ls WHERE ls.report_id = rep.id) s ON true
      WHERE rep.rule_id = $1 ORDER BY rep.date DESC`,
    [ruleId],
  );
  const exp = (
    await db.query<{ token: string; filename: string }>(
      `SELECT e.token, e.filename FROM exports e
        WHERE e.state = 'ready' AND e.id IN (SELECT s.export_id FROM lead_sales s JOIN reports rep ON rep.id = s.report_id WHERE rep.rule_id = $1 AND s.export_id IS NOT NULL)
        ORDER BY e.id DESC LIMIT 1`,
      [ruleId],
    )
  ).rows[0];
  const link = exp && { ...exp, url: exportUrl(config, exp.token, exp.filename) };
  return { data: rows, rule, export: link ?? null };
}

const exportUrl = (config: Config, token: string, filename: string) => {
  const path = `/api/exports/${token}/${encodeURIComponent(filename)}`;
  return config.PUBLIC_URL ? new URL(path, config.PUBLIC_URL).toString() : path;
};

/**
 * The day's sold leads of a report (its lead_sales) as a file (the export writers: formula-like cells
 * neutralised), named by the rule and the report's date. Streamed: written as it is read.
 */
export async function reportFile(db: Queryable, userId: number, id: number, format: BookType) {
  const report = (
    await db.query<{ date: string; rule: string; landings: number[] }>(
      `SELECT to_char(rep.date, 'YYYY-MM-DD') AS date, r.name AS rule,
              ARRAY(SELECT DISTINCT l.landing_id FROM lead_sales s JOIN leads l ON l.id = s.lead_id WHERE s.report_id = rep.id) AS landings
         FROM reports rep JOIN rules r ON r.id = rep.rule_id WHERE rep.id = $1`,
      [id],
    )
  ).rows[0];
  if (!report) throw reportNotFound();
  const landings: Landing[] = await getLandings(db, report.landings);
  const columns = fileColumns(landings);
  // exportFilename keeps 100 characters: the rule's name (200 at most) is cut first, never the date.
  const filename = exportFilename(`rapport ${report.rule.normalize('NFC').slice(0, 80)} ${report.date}`, format);
  const { rows } = await db.query<{ row: FileRow }>(
    `SELECT ${fileRowSql} AS row FROM leads WHERE id IN (SELECT lead_id FROM lead_sales WHERE report_id = $1) ORDER BY id`,
    [id],
  );
  await audit(db, { actorId: userId, action: 'download', entity: 'report', count: rows.length, details: { report_id: id, format } });
  const body = new PassThrough();
  const writer = sheetWriter(format, body, columns.columns, filename);
  void (async () => {
    for (let i = 0; i < rows.length; i += writer.batch) await writer.rows(rows.slice(i, i + writer.batch).map((r) => columns.row(r.row) as CellValue[]));
    await writer.end();
    body.end();
  })().catch((err: unknown) => body.destroy(err as Error));
  return {
    headers: { 'content-type': contentTypes[format], 'content-disposition': attachmentHeader(filename), 'cache-control': 'no-store' },
    body,
  };
}

/** Every delivery attempt of a report's leads, newest first. */
export async function listDeliveries(db: Queryable, reportId: number): Promise<DeliveryAttempt[]> {
  if (!(await db.query('SELECT 1 FROM reports WHERE id = $1', [reportId])).rows[0]) throw reportNotFound();
  const { rows } = await db.query<DeliveryAttempt>(
    `SELECT id, lead_id, channel, attempt, status, target, http_status, error, will_retry, to_json(created_at) #>> '{}' AS created_at
       FROM deliveries WHERE report_id = $1 ORDER BY created_at DESC, id DESC LIMIT 5000`,
    [reportId],
  );
  return rows;
}
