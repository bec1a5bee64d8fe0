import type { z } from 'zod';
import type { DepartmentStat, StatsCategory, statsParams } from '../../../src/api/leads/contract';
import { entryStatus, leadSources } from '../../../src/api/leads/contract';
import type { Queryable } from '../../db/connection';
import { validationFailed } from '../../errors';
import { parisDayStart } from './filters';
import { getLandings } from './landings';

/**
 * Which leads each category counts, among those created in the date range. Every status is
 * named, never left out: the leads are read by `leads_list_idx`, one range per status.
 */
const statusOf: Record<StatsCategory, string[]> = {
  production: [...entryStatus.options],
  stock: ['new'],
  convertis: ['converted'],
  production_extracted: ['extracted'],
};

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const firstOfMonth = (day: string, add: number) => {
  const d = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + add);
  return d.toISOString().slice(0, 10);
};

/**
 * The range start…end (days, end included) cut into the whole months it covers, counted by
 * `lead_month_stats`, and the days before and after them, counted from the leads.
 */
export function splitRange(start: string, end: string) {
  const endExclusive = nextDay(end);
  const monthsFrom = start.endsWith('-01') ? start : firstOfMonth(start, 1);
  const monthsTo = firstOfMonth(endExclusive, 0);
  if (monthsFrom >= monthsTo) return { months: null, days: [[start, endExclusive]] };
  const days = [
    [start, monthsFrom],
    [monthsTo, endExclusive],
  ].filter(([from, to]) => from < to);
  return { months: [monthsFrom, monthsTo], days };
}

/**
 * Counts of leads per department (or per climate zone), overall (`value`) and per source, for
 * the leads of the landings created between start and end inclusive (days in Paris time).
 */
export async function departmentStats(db: Queryable, p: z.output<typeof statsParams>): Promise<DepartmentStat[]> {
  if (p.start > p.end) throw validationFailed({ end: 'La date de fin précède la date de début' }, 'La date de fin précède la date de début');
  await getLandings(db, p.ids);
  const { months, days } = splitRange(p.start, p.end);
  const params: unknown[] = [p.ids, statusOf[p.category]];
  const param = (v: unknown) => `$${params.push(v)}`;
  const parts: string[] = [];
  if (months) {
    parts.push(`SELECT departement, zone_climatique, ${['value', ...leadSources].map((c) => `sum(${c}) AS ${c}`).join(', ')}
      FROM lead_month_stats
     WHERE landing_id = ANY($1::int[]) AND entry_status = ANY($2::text[])
       AND month >= ${param(months[0])}::date AND month < ${param(months[1])}::date
     GROUP BY 1, 2`);
  }
  for (const [from, to] of days) {
    parts.push(`SELECT departement, zone_climatique, count(*) AS value, ${leadSources.map((s) => `count(*) FILTER (WHERE source = '${s}') AS ${s}`).join(', ')}
      FROM leads
     WHERE landing_id = ANY($1::int[]) AND entry_status = ANY($2::text[])
       AND created_at >= ${parisDayStart(param(from))} AND created_at < ${parisDayStart(param(to))}
     GROUP BY 1, 2`);
  }
  const group = p.zone ? `''::text AS departement, zone_climatique` : 'departement, max(zone_climatique) AS zone_climatique';
  const { rows } = await db.query<DepartmentStat>(
    `SELECT ${group}, ${['value', ...leadSources].map((c) => `sum(${c})::int AS ${c}`).join(', ')}
       FROM (${parts.join(' UNION ALL ')}) counts
      GROUP BY ${p.zone ? 'zone_climatique' : 'departement'}
     HAVING sum(value) > 0
      ORDER BY 1, 2`,
    params,
  );
  return rows;
}
