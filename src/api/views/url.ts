/**
 * The lead view's state in its URL (issue 28): the landings in the path, then `tab` (absent for
 * Nouveaux), `sort=<column>.<asc|desc>` and one parameter per column filter, named after its
 * column (`?departement=30&nom=dup`), so that a link opens exactly that list. Values read from a
 * URL are checked against the landings' columns: an unknown tab, column or direction is dropped,
 * never an error.
 */
import { hrefOf } from '../../commands/screens';
import type { GridFilters, GridSort } from '../../grid/types';
import type { Landing } from '../landings/contract';
import { fixedColumns } from '../leads/contract';
import { gridFilters } from '../leads/requests';
import { viewTab, type SavedView, type ViewTab } from './contract';

export interface ListState {
  tab: ViewTab;
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
  const tab = viewTab.safeParse(search.get('tab'));
  const filters: Record<string, string> = {};
  for (const [key, value] of search) if (!reserved.has(key) && value !== '' && known(key)) filters[key] = value;
  const m = /^(.+)\.(asc|desc)$/.exec(search.get('sort') ?? '');
  return {
    tab: tab.success ? tab.data : 'new',
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

/** The link that opens a saved view: its landings, tab, sort and filters in the lead view's URL. */
export function viewHref(view: SavedView): string {
  const search = listSearch({ tab: view.tab, filters: gridFilters(view.filters), sort: view.sort });
  return hrefOf('leads', { id: view.landing_ids.join(',') }, Object.fromEntries(search));
}
