/**
 * The lead view's state in its URL (issue 28): the landings in the path, then `tab` (absent for
 * Nouveaux), `sort=<column>.<asc|desc>` and one parameter per column filter, named after its
 * column (`?departement=30&nom=dup`), so that a link opens exactly that list. Values read from a
 * URL are checked against the landings' columns: an unknown tab, column or direction is dropped,
 * never an error.
 */
import type { Landing } from '../../api/landings/contract';
import { fixedColumns } from '../../api/leads/contract';
import type { GridFilters, GridSort } from '../../grid/types';
import { isLeadTab, type LeadTab } from './store';

export interface ListState {
  tab: LeadTab;
  filters: GridFilters;
  sort: GridSort | null;
}

const reserved = new Set(['tab', 'sort']);

/** The columns a list of these landings has (fixed and form columns); null while they load. */
export function knownColumns(landings: readonly Landing[] | undefined): ReadonlySet<string> | null {
  return landings ? new Set<string>([...fixedColumns, ...landings.flatMap((l) => l.columns.map((c) => c.key))]) : null;
}

/** The state a URL's query names; `columns` null (not known yet) keeps every column. */
export function readListState(search: URLSearchParams, columns: ReadonlySet<string> | null): ListState {
  const known = (key: string) => columns === null || columns.has(key);
  const tab = search.get('tab');
  const filters: Record<string, string> = {};
  for (const [key, value] of search) if (!reserved.has(key) && value !== '' && known(key)) filters[key] = value;
  const m = /^(.+)\.(asc|desc)$/.exec(search.get('sort') ?? '');
  return {
    tab: isLeadTab(tab) ? tab : 'new',
    filters,
    sort: m && known(m[1]) ? { key: m[1], dir: m[2] as GridSort['dir'] } : null,
  };
}

/** The query of a state, tab first: what readListState reads back. */
export function listSearch(state: ListState): URLSearchParams {
  const search = new URLSearchParams();
  if (state.tab !== 'new') search.set('tab', state.tab);
  if (state.sort) search.set('sort', `${state.sort.key}.${state.sort.dir}`);
  for (const [key, value] of Object.entries(state.filters)) if (!reserved.has(key) && value !== '') search.set(key, value);
  return search;
}

/** A filter change this soon after the previous one continues the same typing: it replaces the history entry. */
export const TYPING_MS = 2_000;
