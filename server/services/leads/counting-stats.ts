import type { Landing } from '../../../src/api/landings/contract';
import { leadSource, type LeadFilters } from '../../../src/api/leads/contract';
import type { Params } from '../../db/params';
import { datePattern, knownValueColumns, parisDayStart } from './filters';

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

/**
 * `stats` over the whole months of the days first…last (either open), each row's month start as
 * its `created_at`, and the leads of the days before and after those months as rows of one (read
 * by leads_list_idx's dates): what a count of a range of creation days sums, the range's
 * conditions kept on the rows.
 */
function statsAndDays({ from: stats, columns }: Stats, first: string | undefined, last: string | undefined, params: Params): string {
  const from = first ? `(date_trunc('month', (${params.add(first)}::date - 1)::timestamp) + interval '1 month')::date` : `'-infinity'::date`;
  const until = last ? `date_trunc('month', (${params.add(last)}::date + 1)::timestamp)::date` : `'infinity'::date`;
  const leads = `SELECT landing_id, entry_status, ${columns.join(', ')}, created_at, 1 AS value FROM leads`;
  return `(SELECT s.landing_id, s.entry_status, ${columns.map((c) => `s.${c}`).join(', ')}, ${parisDayStart('s.month')} AS created_at, s.value
             FROM ${stats} s WHERE s.month >= ${from} AND s.month < ${until}
           UNION ALL ${leads} WHERE created_at < ${parisDayStart(from)}
           UNION ALL ${leads} WHERE created_at >= ${parisDayStart(`greatest(${from}, ${until})`)})`;
}
