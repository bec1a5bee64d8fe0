import type { Landing } from '../../../src/api/landings/contract';
import type { LeadFilters } from '../../../src/api/leads/contract';
import type { Queryable } from '../../db/connection';
import type { Params } from '../../db/params';
import { soleColumnType } from './columns';
import { containsOperator, containsPattern, containsText, copiedColumn } from './filters';

/** The form types whose value lead_persons holds, each in a column named as the type. */
const personTypes = new Set(['phone', 'email', 'postal_code']);

/** The condition that finds the leads of a 'contains' filter on `key` through their person. */
export type PersonPath = { key: string; sql: string };

/** pg_trgm finds nothing shorter in its index: a pattern of two letters reads all of it. */
const MIN_TRIGRAM = 3;

/**
 * Ways in, not filters: for each 'contains' filter on a phone, email or postal code column, the
 * leads whose person (lead_persons) has such a value containing the text, which that table's
 * trigram indexes find (search-indexes.ts, PostgreSQL) and no status change writes. A lead's
 * person is its landing's first phone and email values (deriveFields) and the value of its first
 * postal code column (migration 128), as the form stored them: on a landing whose only column of
 * the type is the filtered one, it is that column's value. The condition
 * then keeps every lead the filter keeps, and lets the planner start from the leads it names
 * instead of reading the whole tab; a page and a selection keep the filter beside it
 * (leadConditions), a count leaves the filter to it (list.ts `countConditions`). A column that is
 * not its landings' only one of its type gets none. `filters` are ones leadConditions accepted.
 * With `copied: false`, a filter that leadConditions writes on a column of leads_list_idx
 * (copiedColumn) gets none either.
 */
export function personPaths(
  db: Pick<Queryable, 'kind'>,
  landings: Landing[],
  filters: LeadFilters,
  params: Params,
  { copied = true }: { copied?: boolean } = {},
): PersonPath[] {
  if (db.kind !== 'pg') return [];
  const paths: PersonPath[] = [];
  for (const [key, text] of Object.entries(filters.contains ?? {})) {
    const having = landings.filter((l) => l.columns.some((c) => c.key === key));
    const type = soleColumnType(having, key);
    if (!type || !personTypes.has(type) || (!copied && copiedColumn(landings, key))) continue;
    const needle = containsText(type, text);
    if (needle.length < MIN_TRIGRAM) continue;
    const ids = having.length === 1 ? `= ${params.add(having[0].id)}::int` : `= ANY(${params.add(having.map((l) => l.id))}::int[])`;
    const sql = `l.id IN (SELECT p.lead_id FROM lead_persons p WHERE p.landing_id ${ids} AND p.${type} ${containsOperator(needle)} ${params.add(containsPattern(needle))})`;
    paths.push({ key, sql });
  }
  return paths;
}
