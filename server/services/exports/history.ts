import { frenchOrder } from '../../db/french-order';
import type { z } from 'zod';
import type { ExportItem, ExportsResponse, exportsQuery } from '../../../src/api/exports/contract';
import type { BookType } from '../../../src/api/leads/contract';
import type { Config } from '../../config';
import type { Queryable } from '../../db/connection';
import { Params } from '../../db/params';
import { downloadUrl } from './filenames';

type ExportsFilter = z.output<typeof exportsQuery>;

export interface ExportRow {
  id: number;
  landing_ids: number[];
  user_id: number | null;
  filename: string;
  book_type: BookType;
  count: number;
  created: string;
  for_customer: string | null;
  token: string;
  big_export: boolean;
  reinjectable: boolean;
}

/** Columns of an export as the history shows it; `e` is the exports row. */
export const exportColumns = `e.id, e.landing_ids, e.user_id, e.filename, e.book_type, e.count,
  to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created, e.for_customer, e.token, e.big_export,
  (NOT e.big_export AND EXISTS (SELECT 1 FROM leads l WHERE l.export_id = e.id AND l.entry_status = 'extracted')) AS reinjectable`;

export const toExportItem = (config: Config, r: ExportRow): ExportItem => ({
  id: r.id,
  landing: r.landing_ids,
  user: r.user_id,
  filename: r.filename,
  book_type: r.book_type,
  count: r.count,
  created: r.created,
  for_customer: r.for_customer,
  token: r.token,
  big_export: r.big_export,
  url: downloadUrl(config, r.token, r.filename),
  reinjectable: r.reinjectable,
});

/** The exports history ('Gestion des exports'): a page of the matching exports, newest first, and the filters' choices. */
export async function listExports(db: Queryable, config: Config, filter: ExportsFilter): Promise<ExportsResponse> {
  const params = new Params();
  const where = [`e.state = 'ready'`];
  if (filter.landing_id?.length) where.push(`e.landing_ids && ${params.add(filter.landing_id)}::int[]`);
  if (filter.user_id) where.push(`e.user_id = ${params.add(filter.user_id)}`);
  if (filter.for_customer) where.push(`e.for_customer = ${params.add(filter.for_customer)}`);
  if (filter.created_at) {
    // Paris days, inclusive on both ends.
    const [start, end] = filter.created_at.split('<>');
    if (start) where.push(`e.created_at >= (${params.add(start)}::date)::timestamp AT TIME ZONE 'Europe/Paris'`);
    if (end) where.push(`e.created_at < (${params.add(end)}::date + 1)::timestamp AT TIME ZONE 'Europe/Paris'`);
  }
  const cond = where.join(' AND ');
  const totals = (
    await db.query<{ total: number; total_leads: number }>(
      `SELECT count(*)::int AS total, coalesce(sum(e.count), 0)::int AS total_leads FROM exports e WHERE ${cond}`,
      params.values,
    )
  ).rows[0]!;
  const page = await db.query<ExportRow>(
    `SELECT ${exportColumns} FROM exports e WHERE ${cond}
      ORDER BY e.created_at DESC, e.id DESC LIMIT ${params.add(filter._limit)} OFFSET ${params.add(filter._offset)}`,
    params.values,
  );
  const [landings, users, buyers] = await Promise.all([
    db.query<{ id: number; name: string }>('SELECT id, name FROM landings ORDER BY id'),
    db.query<{ id: number; name: string }>('SELECT id, name FROM users ORDER BY id'),
    db.query<{ for_customer: string }>(
      `SELECT DISTINCT ${frenchOrder('for_customer')} AS for_customer FROM exports WHERE for_customer IS NOT NULL AND for_customer <> '' ORDER BY 1`,
    ),
  ]);
  return {
    data: page.rows.map((r) => toExportItem(config, r)),
    landings: Object.fromEntries(landings.rows.map((l) => [String(l.id), l.name])),
    users: Object.fromEntries(users.rows.map((u) => [String(u.id), u.name])),
    total_leads: totals.total_leads,
    total: totals.total,
    for_customer: buyers.rows,
  };
}
