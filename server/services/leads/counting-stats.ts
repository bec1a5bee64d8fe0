import type { Landing } from '../../../src/api/landings/contract';
import { leadSource, type LeadFilters } from '../../../src/api/leads/contract';
import type { Params } from '../../db/params';
import { datePattern, knownValueColumns, parisDayStart } from './filters';
import { isCalendarDay } from './normalize';

/**
 * The columns that lead_month_stats holds under the leads' own names (the landing's condition is
 * written on l.landing_id), the source once its counts are unpivoted (leads.source is one of them).
 */
const monthStatsColumns = new Set(['landing', 'entry_status', 'departement', 'zone_climatique', 'source']);

/** The columns that lead_select_stats holds beside one select column's values. */
const selectStatsColumns = new Set(['landing', 'entry_status']);

/** lead_month_stats with a row per source: its `value` is the count of that `source`. */
const monthStatsBySource = `(SELECT s.landing_id, s.month, s.entry_status, s.departement, s.zone_climatique, v.source, v.value
   FROM lead_month_stats s
  CROSS JOIN LATERAL (VALUES ${leadSource.options.map((source) => `('${source}', s.${source})`).join(', ')}) v (source, value))`;

/** Rows of monthly counts, and the columns of `leads` their rows hold beside the landing, the month and the status. */
type Stats = { from: string; columns: string[] };

/**
 * Whether lead_select_stats counts the key's values on every landing that has it: a select column
 * with options there (the migration's `landing_select_keys`).
 */
const countedSelect = (landings: Landing[], key: string) =>
  landings.flatMap((l) => l.columns.filter((c) => c.key === key)).every((c) => c.type === 'select' && Array.isArray(c.options) && c.options.length > 0);

/**
 * The monthly counts that hold every column the filters name: lead_month_stats for the department,
 * the zone and the source; lead_select_stats for one UTM column's or the presale page's values,
 * under the column's name, or for one select column's values, its rows' `data` an object of that
 * column alone, so that the filter's condition reads them as it reads a lead.
 */
function statsFor(landings: Landing[], keys: string[], valueKeys: string[], params: Params): Stats | null {
  if (keys.every((key) => monthStatsColumns.has(key))) {
    const bySource = keys.includes('source');
    return { from: bySource ? monthStatsBySource : 'lead_month_stats', columns: ['departement', 'zone_climatique', ...(bySource ? ['source'] : [])] };
  }
  const others = [...new Set(keys.filter((key) => !selectStatsColumns.has(key)))];
  const [key] = others;
  if (others.length !== 1) return null;
  if (knownValueColumns.has(key!)) {
    return {
      from: `(SELECT s.landing_id, s.month, s.entry_status, s.value AS ${key}, s.count AS value FROM lead_select_stats s WHERE s.key = '${key}')`,
      columns: [key!],
    };
  }
  if (!valueKeys.includes(key!) || !countedSelect(landings, key!)) return null;
  return {
    from: `(SELECT s.landing_id, s.month, s.entry_status, jsonb_build_object(s.key, s.value) AS data, s.count AS value
              FROM lead_select_stats s WHERE s.key = ${params.add(key)})`,
    columns: ['data'],
  };
}

/**
 * The statistics that count exactly the leads `input` keeps, as a FROM item whose rows have the
 * count in `value` (null when a filter needs the leads themselves): its filters are on columns
 * that monthly counts hold per landing, month and status (`statsFor`), so that leadConditions'
 * conditions read them as they are, and on one range of creation days. `input` is one that
 * leadConditions accepted: it is not checked again.
 */
export function countingStats(landings: Landing[], { contains = {}, values = {}, dates = {} }: LeadFilters, params: Params): string | null {
  const { created_at: containsDays, ...otherContains } = contains;
  const { created_at: days, ...otherDates } = dates;
  if (Object.keys(otherDates).length > 0) return null;
  // An empty filter keeps every lead, those without a value too, which no row of a column's counts holds.
  const containsKeys = Object.keys(otherContains).filter((key) => otherContains[key] !== '');
  const valueKeys = Object.keys(values).filter((key) => values[key]!.length > 0);
  const stats = statsFor(landings, [...containsKeys, ...valueKeys], valueKeys, params);
  if (!stats) return null;
  const ranges = [days, containsDays].filter((r) => r !== undefined && r !== '');
  if (ranges.length === 0) return stats.from;
  const range = ranges.length === 1 ? datePattern.exec(ranges[0]!) : null;
  if (!range) return null;
  const [, first, last] = range;
  return first || last ? statsAndDays(stats, first, last, params) : stats.from;
}

/** The first day of a 'YYYY-MM-DD' day's month, of the next month, and the day after it. */
const monthStart = (day: string) => `${day.slice(0, -3)}-01`;
const nextMonth = (day: string) => {
  const [year, month] = day.split('-').map(Number) as [number, number];
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
};
const dayAfter = (day: string) => {
  const next = `${day.slice(0, -3)}-${String(Number(day.slice(-2)) + 1).padStart(2, '0')}`;
  return isCalendarDay(next) ? next : nextMonth(day);
};

/**
 * `stats` over the whole months of the days first…last (either open), each row's month start as
 * its `created_at`, and the days of the months cut at either end (first's, last's, or one month
 * holding both) as rows too: what a count of a range of creation days sums, the range's
 * conditions kept on the rows. Of a cut month, the side with fewer days is read from the leads
 * (leads_list_idx's dates): its days in the range, or the month's counts less its days outside,
 * rows of -1 (docs/performance.md). Rows standing for days in the range carry the range's first
 * day in it as their `created_at`.
 */
function statsAndDays({ from: stats, columns }: Stats, first: string | undefined, last: string | undefined, params: Params): string {
  const columnList = columns.join(', ');
  const dayStart = (day: string) => parisDayStart(params.add(day));
  const monthRows = (created: string, months: string) =>
    `SELECT s.landing_id, s.entry_status, ${columns.map((c) => `s.${c}`).join(', ')}, ${created} AS created_at, s.value FROM ${stats} s WHERE ${months}`;
  const leadRows = (created: string, value: number, from: string, until: string) =>
    `SELECT landing_id, entry_status, ${columnList}, ${created} AS created_at, ${value} AS value FROM leads
      WHERE created_at >= ${dayStart(from)} AND created_at < ${dayStart(until)}`;
  /** The days from…until (exclusive, the next month's first day at most) of the month starting `month`. */
  const cutMonth = (month: string, from: string, until: string) => {
    const end = nextMonth(month);
    // Days of the month as numbered in it (a month's end as its 32nd): which side is the shorter.
    const [fromDay, untilDay] = [Number(from.slice(-2)), until === end ? 32 : Number(until.slice(-2))];
    if (fromDay - 1 + (32 - untilDay) >= untilDay - fromDay) return [leadRows('created_at', 1, from, until)];
    const inRange = dayStart(from);
    return [
      monthRows(inRange, `s.month = ${params.add(month)}::date`),
      ...(from !== month ? [leadRows(inRange, -1, month, from)] : []),
      ...(until !== end ? [leadRows(inRange, -1, until, end)] : []),
    ];
  };
  // Whole months: from the first month that starts in the range to the last that ends in it.
  const wholeFrom = first && (first === monthStart(first) ? first : nextMonth(first));
  const after = last && dayAfter(last);
  const wholeUntil = after && monthStart(after);
  const months = [wholeFrom ? `s.month >= ${params.add(wholeFrom)}::date` : 'true', wholeUntil ? `s.month < ${params.add(wholeUntil)}::date` : 'true'].join(
    ' AND ',
  );
  const parts = [monthRows(parisDayStart('s.month'), months)];
  const headMonth = first && first !== wholeFrom ? monthStart(first) : undefined;
  const tailMonth = after && after !== wholeUntil ? wholeUntil : undefined;
  if (headMonth && headMonth === tailMonth) parts.push(...cutMonth(headMonth, first!, after!));
  else {
    if (headMonth) parts.push(...cutMonth(headMonth, first!, nextMonth(headMonth)));
    if (tailMonth) parts.push(...cutMonth(tailMonth, tailMonth, after!));
  }
  return `(${parts.join(' UNION ALL ')})`;
}
