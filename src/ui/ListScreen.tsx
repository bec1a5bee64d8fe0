/**
 * The one shape of the administration lists (customers, rules, reports, accounts, exports): a
 * title, optional tabs kept in the URL, a toolbar of the screen's `<name>.actions` commands, the
 * load error, and the grid with its context menu and its row buttons (the `inline` places of
 * `<name>.actions`). A screen declares what differs: its columns, loader and forms.
 *
 *   const list = useListScreen<Customer, CustomerTab>({ tabs: customerTabs, loader, version: customers.data });
 *   useProvideCommandContext({ view: 'customers', customers: { tab: list.tab, showTab: list.showTab, focused: list.focused, … } });
 *   return <ListScreen name="customers" title={…} list={list} grid={{ columns, queryKey: 'customers', rowArgs }} panels={{ create: <CustomerForm /> }} />;
 *
 * Its i18n ids follow the name: `<name>.actions`, `.grid`, `.column.<key>`, `.tabs`, `.tab.<tab>`, `.error.load`.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { useSearchParams } from 'react-router';
import { CommandMenu } from '../commands/CommandMenu';
import type { MenuId } from '../commands/registry';
import { defaultFormatter, Grid } from '../grid/Grid';
import type { GridColumnSpec, GridHandle, GridSelectionInfo, Row, RowId, RowLoader, RowTone } from '../grid/types';
import { useIntl, useT } from '../i18n/provider';
import './listScreen.css';

interface ListScreenOptions<K extends string> {
  /** The tabs, the first one the list's; the others hold forms (`panels`). None: the list alone. */
  tabs?: readonly K[];
  loader: RowLoader;
  /** The data the loader reads (react-query's), as last fetched: when it changes, the grid reads it again. */
  version?: unknown;
}

export interface ListScreenState<T, K extends string> {
  gridRef: RefObject<GridHandle | null>;
  grid: () => GridHandle | null;
  /** The current tab: `?tab=<id>` in the URL, the first tab without. */
  tab: K;
  /** The tab list's own change: the focus stays on the tab. */
  setTab: (tab: K) => void;
  /** A tab shown by a key or a command: the focus goes into it (the grid, or the field marked `data-tab-entry="<tab>"`). */
  showTab: (tab: K) => void;
  tabs: readonly K[] | undefined;
  /** The record of the grid's focused row, as last loaded. */
  focused: T | undefined;
  /** A loaded row's record by id (a row button's target). */
  byId: (id: RowId) => T | undefined;
  refresh: () => Promise<void>;
  failed: boolean;
  loader: RowLoader;
  onSelectionChange: (info: GridSelectionInfo) => void;
}

/** The state of a list screen: its tab, its focused row's record, its load error, the grid's handle. */
export function useListScreen<T, K extends string = 'list'>({ tabs, loader, version }: ListScreenOptions<K>): ListScreenState<T, K> {
  const gridRef = useRef<GridHandle | null>(null);
  const grid = useCallback(() => gridRef.current, []);

  const [search, setSearch] = useSearchParams();
  const requested = search.get('tab') as K | null;
  const first = (tabs?.[0] ?? 'list') as K;
  const tab = requested !== null && tabs?.includes(requested) ? requested : first;
  const setTab = useCallback((next: K) => setSearch(next === first ? {} : { tab: next }, { replace: true }), [setSearch, first]);
  const pending = useRef<K | null>(null);
  const enter = useCallback(
    (shown: K) => {
      if (shown === first) gridRef.current?.focus();
      else document.querySelector<HTMLElement>(`[data-tab-entry="${shown}"]`)?.focus();
    },
    [first],
  );
  const showTab = useCallback(
    (next: K) => {
      if (next === tab) return enter(next);
      pending.current = next;
      setTab(next);
    },
    [tab, setTab, enter],
  );
  // The new panel renders after the change: its grid or field is focused then.
  useEffect(() => {
    if (pending.current !== tab) return;
    pending.current = null;
    enter(tab);
  }, [tab, enter]);

  // The rows loaded, by id, and a count of loads that says when they changed.
  const [rows] = useState(() => new Map<RowId, T>());
  const [loads, setLoads] = useState(0);
  const [failed, setFailed] = useState(false);
  const tracked: RowLoader = useCallback(
    async (req, signal) => {
      try {
        const page = await loader(req, signal);
        if (req.offset === 0) rows.clear();
        for (const row of page.rows) rows.set(row.id, row as unknown as T);
        setLoads((n) => n + 1);
        setFailed(false);
        return page;
      } catch (error) {
        if (!signal.aborted) setFailed(true);
        throw error;
      }
    },
    [loader, rows],
  );

  const [focusedId, setFocusedId] = useState<RowId | undefined>(undefined);
  const onSelectionChange = useCallback((info: GridSelectionInfo) => setFocusedId(info.focusedId), []);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `loads` says when the map changed
  const focused = useMemo(() => (focusedId === undefined ? undefined : rows.get(focusedId)), [rows, focusedId, loads]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `loads` says when the map changed
  const byId = useCallback((id: RowId) => rows.get(id), [rows, loads]);

  const refresh = useCallback(async () => {
    await gridRef.current?.refresh();
  }, []);
  useEffect(() => {
    if (version !== undefined) void gridRef.current?.refresh();
  }, [version]);

  return { gridRef, grid, tab, setTab, showTab, tabs, focused, byId, refresh, failed, loader: tracked, onSelectionChange };
}

/** What differs from one list's grid to another. */
export interface ListGrid {
  /** A new key starts a new list (another customer, other filters): filters, sort and selection reset. */
  queryKey: string;
  columns: readonly GridColumnSpec[];
  /** A cell's text, where it is not the default (dates and numbers in the console's language). */
  format?: (column: GridColumnSpec, value: unknown) => string;
  rowTone?: (row: Row) => RowTone;
  /** What Enter or a double click on a row opens. */
  onOpen?: (row: Row) => void;
  /** The row buttons (the inline places of `<name>.actions`): their commands' arguments for a row, and the column's width. */
  rowButtons?: { args: (row: Row) => unknown; width: number };
}

interface Props<T, K extends string> {
  /** The screen's id: its menu `<name>.actions` and its i18n ids. */
  name: ListName;
  title: ReactNode;
  /** Under the title. */
  subtitle?: ReactNode;
  /** Beside the title: a filter, a link. */
  head?: ReactNode;
  /** Between the title and the list: filter bars, panels. */
  above?: ReactNode;
  list: ListScreenState<T, K>;
  grid: ListGrid;
  /** At the end of the toolbar: what the list or its focused row amounts to. */
  status?: ReactNode;
  /** Beside the list (a report's delivery log), in `bodyClassName`'s layout. */
  aside?: ReactNode;
  bodyClassName?: string;
  /** The panels of the tabs other than the list's. */
  panels?: Partial<Record<K, ReactNode>>;
  /** Dialogs. */
  children?: ReactNode;
}

/**
 * Escape in a field of the screen (a filter, a form) leaves it, once, for the list's grid, or for
 * the current tab when the field is in another tab, where the screen's keys work again. Fields
 * keep what was typed; popovers, dialogs and the grid's own header filters handle their Escape first.
 */
function escapeFromField(e: KeyboardEvent<HTMLElement>, inForm: boolean, grid: GridHandle | null) {
  const target = e.target as HTMLElement;
  if (e.key !== 'Escape' || e.defaultPrevented || !e.currentTarget.contains(target)) return;
  if (!target.matches('input, select, textarea, [aria-haspopup]') || target.closest('[role=grid]')) return;
  e.preventDefault();
  if (inForm) e.currentTarget.querySelector<HTMLElement>('[role=tab][aria-selected=true]')?.focus();
  else grid?.focus();
}

/** A list screen's name: one whose `<name>.actions` menu is declared, so a typo fails typecheck. */
type ListName = { [M in MenuId]: M extends `${infer N}.actions` ? N : never }[MenuId];
const menuOf = (name: ListName) => `${name}.actions` as MenuId;

export function ListScreen<T, K extends string>({
  name,
  title,
  subtitle,
  head,
  above,
  list,
  grid,
  status,
  aside,
  bodyClassName,
  panels,
  children,
}: Props<T, K>) {
  const t = useT();
  const intl = useIntl();
  const { rowButtons } = grid;
  const columns = useMemo(
    () =>
      rowButtons
        ? [
            ...grid.columns,
            {
              key: 'actions',
              label: '',
              kind: 'text' as const,
              width: rowButtons.width,
              sort: false,
              filter: false,
              cell: (row: Row) => <CommandMenu menu={menuOf(name)} variant="row" label={t(`${name}.actions`)} args={rowButtons.args(row)} />,
            },
          ]
        : [...grid.columns],
    [grid.columns, rowButtons, name, t],
  );
  const columnLabel = useCallback((c: GridColumnSpec) => t(`${name}.column.${c.key}`), [name, t]);
  const format = useMemo(() => grid.format ?? defaultFormatter(intl.locale), [grid.format, intl.locale]);
  const actions = t(`${name}.actions`);

  const body = (
    <div className={`list-body${bodyClassName ? ` ${bodyClassName}` : ''}`}>
      <div className="list-main">
        <div className="list-bar">
          <CommandMenu menu={menuOf(name)} variant="toolbar" label={actions} className="list-actions" />
          {status ? (
            <p className="list-status" aria-live="polite">
              {status}
            </p>
          ) : null}
        </div>
        {list.failed ? (
          <p role="alert" className="list-error">
            {t(`${name}.error.load`)}
          </p>
        ) : null}
        <Grid
          queryKey={grid.queryKey}
          rowMenu={{ menu: menuOf(name), label: actions }}
          loader={list.loader}
          label={t(`${name}.grid`)}
          t={t}
          locale={intl.locale}
          columns={columns}
          columnLabel={columnLabel}
          format={format}
          rowTone={grid.rowTone}
          handleRef={list.gridRef}
          selectable={false}
          onSelectionChange={list.onSelectionChange}
          onOpen={grid.onOpen}
          className="list-grid"
        />
      </div>
      {aside}
    </div>
  );

  return (
    <section
      className="list-screen"
      aria-labelledby={`${name}-title`}
      onKeyDown={(e) => escapeFromField(e, list.tabs !== undefined && list.tab !== list.tabs[0], list.gridRef.current)}
    >
      <header className="list-head">
        <div>
          <h1 id={`${name}-title`}>{title}</h1>
          {subtitle}
        </div>
        {head}
      </header>
      {above}
      {list.tabs ? (
        <Tabs selectedKey={list.tab} onSelectionChange={(key) => list.setTab(key as K)} className="screen-tabs">
          <TabList aria-label={t(`${name}.tabs`)} className="screen-tablist">
            {list.tabs.map((key) => (
              <Tab key={key} id={key} className="screen-tab">
                {t(`${name}.tab.${key}`)}
              </Tab>
            ))}
          </TabList>
          {list.tabs.map((key, i) => (
            <TabPanel key={key} id={key} className="list-panel">
              {i === 0 ? body : panels?.[key]}
            </TabPanel>
          ))}
        </Tabs>
      ) : (
        body
      )}
      {children}
    </section>
  );
}
