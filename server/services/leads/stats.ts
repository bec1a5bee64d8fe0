import type { z } from 'zod';
import type { DepartmentStat, StatsCategory, statsParams } from '../../../src/api/leads/contract';
import { entryStatus, leadSources } from '../../../src/api/leads/contract';
import type { Queryable } from '../../db/connection';
import { Params } from '../../db/params';
import { validationFailed } from '../../errors';
import { parisDayStart } from './filters';

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

/** Today in Paris time (YYYY-MM-DD), the time of lead_month_stats' months. */
export const parisToday = (now = new Date()) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(now);

/**
 * The range start…end (days, end included) cut into the whole months it covers, counted by
 * `lead_month_stats`, and the days before and after them, counted from the leads. No lead is
 * created after now, so a range that ends today or later takes its last month whole: a year up
 * to today then reads the leads of a few days at its start, not those of the current month
 * (1.2 million at 10 million leads).
 */
export function splitRange(start: string, end: string, today = parisToday()) {
  const endExclusive = end >= today ? firstOfMonth(end, 1) : nextDay(end);
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
 * The counts of the leads of some landings created between start and end inclusive (days in
 * Paris time), overall (`value`) and per source, by department, climate zone and status: the
 * whole months from `lead_month_stats`, the days at the two ends from the leads (read through
 * `leads_list_idx`, one range per status). `landings` and `statuses` are bound int[] and text[].
 */
export function rangeCounts(start: string, end: string, sql: { landings: string; statuses: string }, params: Params): string {
  const { months, days } = splitRange(start, end);
  const parts: string[] = [];
  if (months) {
    parts.push(`SELECT departement, zone_climatique, entry_status, ${['value', ...leadSources].map((c) => `sum(${c}) AS ${c}`).join(', ')}
      FROM lead_month_stats
     WHERE landing_id = ANY(${sql.landings}) AND entry_status = ANY(${sql.statuses})
       AND month >= ${params.add(months[0])}::date AND month < ${params.add(months[1])}::date
     GROUP BY 1, 2, 3`);
  }
  for (const [from, to] of days) {
    parts.push(`SELECT departement, zone_climatique, entry_status, count(*) AS value, ${leadSources.map((s) => `count(*) FILTER (WHERE source = '${s}') AS ${s}`).join(', ')}
      FROM leads
     WHERE landing_id = ANY(${sql.landings}) AND entry_status = ANY(${sql.statuses})
       AND created_at >= ${parisDayStart(params.add(from))} AND created_at < ${parisDayStart(params.add(to))}
     GROUP BY 1, 2, 3`);
  }
  return parts.join(' UNION ALL ');
}

/**
 * Counts of leads per department (or per climate zone), overall (`value`) and per source, for
 * the leads of the landings created between start and end inclusive (days in Paris time). The
 * landings are known ones: the route has read them (404 otherwise).
 */
export async function departmentStats(db: Queryable, p: z.output<typeof statsParams>): Promise<DepartmentStat[]> {
  if (p.start > p.end) throw validationFailed({ end: 'La date de fin précède la date de début' }, 'La date de fin précède la date de début');
  const params = new Params();
  const counts = rangeCounts(p.start, p.end, { landings: `${params.add(p.ids)}::int[]`, statuses: `${params.add(statusOf[p.category])}::text[]` }, params);
  const group = p.zone ? `''::text AS departement, zone_climatique` : 'departement, max(zone_climatique) AS zone_climatique';
  const { rows } = await db.query<DepartmentStat>(
    `SELECT ${group}, ${['value', ...leadSources].map((c) => `sum(${c})::int AS ${c}`).join(', ')}
       FROM (${counts}) counts
      GROUP BY ${p.zone ? 'zone_climatique' : 'departement'}
     HAVING sum(value) > 0
      ORDER BY 1, 2`,
    params.values,
  );
  return rows;
}
