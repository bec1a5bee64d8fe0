import type { ColumnType, Landing } from '../../../src/api/landings/contract';
import { leadFilters, type EntryStatus, type LeadFilters } from '../../../src/api/leads/contract';
import { validationFailed } from '../../errors';
import { parse } from '../../validate';
import { columnSqlType, formTypeOf, isFixedColumn, resolveColumn, soleColumnType, unknownColumn } from './columns';
import { isCalendarDay, phoneSearchText } from './normalize';
import { Params } from '../../db/params';

type RawQuery = Record<string, string | string[] | undefined>;
const listParams = new Set(['_limit', 'entry_status', '_sort', '_order', '_cursor', '_offset']);
const last = (v: string | string[]) => (Array.isArray(v) ? v[v.length - 1] : v);
export const datePattern = /^(\d{4}-\d{2}-\d{2})?<>(\d{4}-\d{2}-\d{2})?$/;

/**
 * Reads the column filters of the list query string: `filter[col]=text` (contains; a
 * 'start<>end' value on a date column is a date range), `in[col]=v` (repeatable, exact values),
 * `date[col]=start<>end`. A plain `col=text` naming a column is read as `filter[col]`; other
 * plain parameters not starting with '_' are refused as unknown columns.
 */
export function filtersFromQuery(query: RawQuery): LeadFilters {
  // Maps, not object literals: a column named 'constructor' or 'toString' must not meet Object's own.
  const contains = new Map<string, string>();
  const values = new Map<string, string[]>();
  const dates = new Map<string, string>();
  for (const [name, raw] of Object.entries(query)) {
    if (raw === undefined || listParams.has(name)) continue;
    const m = /^(filter|in|date)\[(.+)\]$/.exec(name);
    const [op, col] = m ? [m[1], m[2]] : name.startsWith('_') ? [] : ['filter', name];
    if (!col) continue;
    // zod's records silently drop this key, which would turn the filter into no filter at all.
    if (col === '__proto__') throw unknownColumn(name, col);
    if (op === 'in') values.set(col, [...(values.get(col) ?? []), ...(Array.isArray(raw) ? raw : [raw])]);
    else if (op === 'date') dates.set(col, last(raw));
    else contains.set(col, last(raw));
  }
  return { contains: Object.fromEntries(contains), values: Object.fromEntries(values), dates: Object.fromEntries(dates) };
}

/**
 * What a 'contains' filter looks for in a column of that form type: a phone's piece as numbers
 * are stored, an email without edge spaces, a postal code's digits without the spaces people put
 * in them ('13 008').
 */
export function containsText(type: ColumnType | undefined, text: string): string {
  if (type === 'phone') return phoneSearchText(text);
  if (type === 'postal_code') return text.replace(/\s+/g, '');
  return type === 'email' ? text.trim() : text;
}

/** The LIKE or ILIKE pattern of a 'contains' filter's text, its wildcards escaped. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The operator of a 'contains' filter's text: LIKE where the text holds neither a letter nor
 * anything beyond ASCII (a phone's digits, a postal code, an id), which ILIKE would match alike
 * after folding the case of each value it reads (docs/performance.md).
 */
export const containsOperator = (text: string) => (/^[\0-@[-`{-\x7f]*$/.test(text) ? 'LIKE' : 'ILIKE');

/** Paris calendar days: 'YYYY-MM-DD' → the instant the day starts in France. */
export const parisDayStart = (param: string) => `(${param}::date::timestamp AT TIME ZONE 'Europe/Paris')`;

/** SQL conditions (over alias `l`) for landings, status and column filters; values are bound. */
export function leadConditions(landings: Landing[], status: EntryStatus | EntryStatus[], input: LeadFilters, params: Params): string[] {
  const { tab, filters } = classifiedConditions(landings, status, input, params);
  return [...tab, ...filters.map((f) => f.sql)];
}

/**
 * leadConditions for a page: the tab's (landings and status), the filters whose share of the
 * leads the planner can estimate (`always`, `searched`), those on the columns leads_list_idx holds,
 * and the others. A range of creation days is a range of that index after the tab's columns,
 * which the database keeps statistics of; a test of the known values of a UTM column or of the
 * presale page is made once, before any lead is read; a 'contains' on a text column is estimated
 * from the statistics of that column's values and found by its trigram index (search-indexes.ts).
 * The planner knows nothing of other form values.
 */
export function pageConditions(
  landings: Landing[],
  status: EntryStatus | EntryStatus[],
  input: LeadFilters,
  params: Params,
): { tab: string[]; always: string[]; searched: string[]; indexed: string[]; unknown: string[] } {
  const { tab, filters } = classifiedConditions(landings, status, input, params);
  const sql = (planned: Filter['planned']) => filters.filter((f) => f.planned === planned).map((f) => f.sql);
  return { tab, always: sql('always'), searched: sql('searched'), indexed: sql('index'), unknown: sql('never') };
}

/**
 * A filter's condition, and where the planner may see it (pageConditions): a range of creation
 * days and a test of known values always, a form text column's 'contains' where it searches.
 * A condition on a column that leads_list_idx holds ('index') is in view where a page reads its
 * ids from an index alone (list.ts), and hidden otherwise.
 */
type Filter = { sql: string; planned: 'always' | 'searched' | 'index' | 'never' };

/**
 * The columns whose values lead_known_values holds for each landing (migrations 131, 133), and
 * lead_select_stats counts per landing, month and status (migration 135).
 */
export const knownValueColumns = new Set(['utm_source', 'utm_medium', 'utm_campaign', 'url_presale']);

/** The columns of leads_list_idx that filters name, besides the creation time. */
const listIndexColumns = new Set([
  'id',
  'landing',
  'entry_status',
  'departement',
  'zone_climatique',
  'source',
  'utm_source',
  'utm_medium',
  'updated_at',
  'sold_to',
  'convert',
  'rapport_id',
  'visitor',
]);

/**
 * The column of `leads` that holds the value of a form column on every one of `landings`: the
 * phone and the email, which intake copies from the landing's first phone and email columns
 * (deriveFields), where a landing has only one. leads_list_idx holds them, so that a page or a
 * count reads them from that index instead of each lead's form values.
 */
export function copiedColumn(landings: Landing[], key: string): string | undefined {
  const type = soleColumnType(landings, key);
  return type === 'phone' || type === 'email' ? `l.${type}` : undefined;
}

/** The tab's conditions, and each filter's. */
function classifiedConditions(
  landings: Landing[],
  status: EntryStatus | EntryStatus[],
  input: LeadFilters,
  params: Params,
): { tab: string[]; filters: Filter[] } {
  const filters = parse(leadFilters, input);
  // With one landing, '=' lets the planner read leads_list_idx in order (ANY would sort every match).
  const tab = [
    landings.length === 1 ? `l.landing_id = ${params.add(landings[0].id)}::int` : `l.landing_id = ANY(${params.add(landings.map((l) => l.id))}::int[])`,
    Array.isArray(status) ? `l.entry_status = ANY(${params.add(status)}::text[])` : `l.entry_status = ${params.add(status)}`,
  ];
  const where: Filter[] = [];
  const add = (sql: string[], planned: Filter['planned'] = 'never') => where.push(...sql.map((condition) => ({ sql: condition, planned })));
  const valuePlanned = (key: string) => (listIndexColumns.has(key) ? 'index' : 'never');
  const dayPlanned = (key: string) => (key === 'created_at' ? 'always' : valuePlanned(key));

  // A column is resolved (its key bound) only for a condition that uses it; an empty filter is
  // still checked against the columns.
  const expr = (key: string, field: string) => () => resolveColumn(landings, key, params, field).expr;
  for (const [key, text] of Object.entries(filters.contains)) {
    const field = `filter[${key}]`;
    const type = columnSqlType(landings, key, field);
    if ((type === 'timestamptz' || type === 'date') && datePattern.test(text)) {
      add(dateRange(expr(key, field), type, text, params), dayPlanned(key));
    } else if (text !== '') {
      const formType = formTypeOf(landings, key);
      const copied = copiedColumn(landings, key);
      const column = copied ?? expr(key, field)();
      const needle = containsText(formType, text);
      const pattern = params.add(containsPattern(needle));
      const like = containsOperator(needle);
      const test = `${column}::text ${like} ${pattern}`;
      // Uncorrelated, the EXISTS is a test the planner makes once, before it reads any lead.
      if (knownValueColumns.has(key)) {
        const ids = params.add(landings.map((l) => l.id));
        add(
          [`EXISTS (SELECT FROM lead_known_values v WHERE v.landing_id = ANY(${ids}::int[]) AND v.name = '${key}' AND v.value ${like} ${pattern})`],
          'always',
        );
      }
      add([test], copied ? 'index' : formType === 'text' && !isFixedColumn(key) ? 'searched' : valuePlanned(key));
    }
  }
  for (const [key, list] of Object.entries(filters.values)) {
    const field = `in[${key}]`;
    columnSqlType(landings, key, field);
    if (list.length) add([`${expr(key, field)()}::text = ANY(${params.add(list)}::text[])`], valuePlanned(key));
  }
  for (const [key, range] of Object.entries(filters.dates)) {
    const field = `date[${key}]`;
    const type = columnSqlType(landings, key, field);
    if (type !== 'timestamptz' && type !== 'date') {
      throw validationFailed({ [field]: `La colonne ${key} n'est pas une date` }, `La colonne ${key} n'est pas une date`);
    }
    add(dateRange(expr(key, field), type, range, params), dayPlanned(key));
  }
  return { tab, filters: where };
}

function dateRange(column: () => string, type: 'timestamptz' | 'date', range: string, params: Params): string[] {
  const [, start, end] = datePattern.exec(range) ?? [];
  for (const day of [start, end]) {
    if (day && !isCalendarDay(day)) throw validationFailed({ date: `Date invalide : ${day}` }, `Date invalide : ${day}`);
  }
  if (!start && !end) return [];
  const expr = column();
  const out: string[] = [];
  if (type === 'date') {
    if (start) out.push(`${expr} >= ${params.add(start)}`);
    if (end) out.push(`${expr} <= ${params.add(end)}`);
  } else {
    if (start) out.push(`${expr} >= ${parisDayStart(params.add(start))}`);
    if (end) out.push(`${expr} < ${parisDayStart(`(${params.add(end)}::date + 1)`)}`);
  }
  return out;
}
