import {
  memo,
  useCallback,
  useEffect,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
  type Ref,
} from 'react';
import { Popover } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { CommandMenu } from '../commands/CommandMenu';
import { getCommandContext, useProvideCommandContext } from '../commands/context';
import { commandsOf, isPermitted, type MenuId } from '../commands/registry';
import { ui, type Size } from '../state/ui';
import { DEFAULT_WIDTH, visibleColumns } from './columns';
import './grid.commands';
import { GridHeader } from './GridHeader';
import { GridRow } from './GridRow';
import { useColumnWindow } from './columnWindow';
import { RowCache } from './rowCache';
import { rowIds } from './rowSlots';
import * as sel from './selection';
import { clipAll, fontOf, measuredFit } from './textFit';
import type {
  GridAction,
  GridColumnSpec,
  GridFilters,
  GridHandle,
  GridQuery as Query,
  GridSelectionInfo,
  GridSort,
  Row,
  RowId,
  RowLoader,
  RowTone,
} from './types';
import { useRowVirtualizer, type RowGeometry } from './useRowVirtualizer';
import './grid.css';

/** Row and header heights per interface size (Medium, Small, Mini); grid.css sizes the rows alike. */
export const GEOMETRIES: Record<Size, RowGeometry> = {
  medium: { rowHeight: 30, headerHeight: 64, overscan: 8 },
  small: { rowHeight: 26, headerHeight: 56, overscan: 8 },
  mini: { rowHeight: 22, headerHeight: 48, overscan: 8 },
};
const CHECK_WIDTH = 36;
/** Left and right padding of a cell. */
const CELL_PADDING = 16;
const SCROLL_LOAD_DELAY_MS = 80;
/** How many leads after the focused one a refresh looks for, when the focused one left. */
const FOLLOWERS = 1000;

export type Translate = (id: string, values?: Record<string, string | number>) => string;

export interface GridProps {
  loader: RowLoader;
  /** A new key starts a new list (another tab, other landings): filters, sort and selection reset. */
  queryKey: string;
  label: string;
  t: Translate;
  /** Columns when the loader gives none. */
  columns?: GridColumnSpec[];
  pageSize?: number;
  /** A row's colour (the lead list's value, a report's fill); none when absent. */
  rowTone?: (row: Row) => RowTone;
  /** A column's header text at render time, so a language switch renames the columns at once. */
  columnLabel?: (column: GridColumnSpec) => string;
  /** Cells that are links: where each leads, and what a plain click on one does (a command). */
  link?: (column: GridColumnSpec, row: Row) => string | undefined;
  onLink?: (href: string) => void;
  /**
   * Filters and sort kept by the owner (the lead view keeps them in its URL): the list opens with
   * them and follows them when they change (back and forward); the user's own changes are told
   * to `onQueryChange`.
   */
  query?: Query;
  onQueryChange?: (query: Query) => void;
  /** Formats a cell; defaults to dates and numbers in `locale`. */
  format?: (column: GridColumnSpec, value: unknown) => string;
  locale?: string;
  onSelectionChange?: (info: GridSelectionInfo) => void;
  /** What Enter or a double click on a row opens (a customer's rules, a rule's reports). */
  onOpen?: (row: Row) => void;
  /**
   * False for a list whose rows are only looked at or opened (the Statistiques of the map, the
   * customers, rules, reports): no check column, no multiple selection, only the focused row.
   */
  selectable?: boolean;
  /**
   * The context menu of a row (right click, the menu key or Shift+F10 on the focused row): the
   * commands that name this menu in their `menus`, run on the row it was opened on, which takes the focus first.
   */
  rowMenu?: { menu: MenuId; label: string };
  handleRef?: Ref<GridHandle>;
  className?: string;
}

const sameQuery = (a: Query, b: Query) =>
  a.sort?.key === b.sort?.key &&
  a.sort?.dir === b.sort?.dir &&
  Object.keys(a.filters).length === Object.keys(b.filters).length &&
  Object.entries(a.filters).every(([k, v]) => b.filters[k] === v);

// Memoised: a selection the grid reports renders its owner again, which need not render the grid twice.
export const Grid = memo(function Grid(props: GridProps) {
  const { loader, queryKey, t, pageSize = 150, onSelectionChange, onOpen, locale, rowTone, selectable = true, rowMenu } = props;
  const checkWidth = selectable ? CHECK_WIDTH : 0;
  const domId = useId().replace(/:/g, '');
  const [, bump] = useReducer((n: number) => n + 1, 0);
  const [query, setQueryState] = useState<Query>(() => props.query ?? { sort: null, filters: {} });
  const queryRef = useRef(query);
  const setQuery = useCallback((next: Query) => {
    queryRef.current = next;
    setQueryState(next);
  }, []);
  const [state, setSelectionState] = useState<sel.SelectionState>(sel.initialSelection);
  // The selection is also kept in a ref, updated at once: a command run by the next keystroke
  // reads it through the handle before React has re-rendered.
  const stateRef = useRef(state);
  const setState = useCallback((next: sel.SelectionState | ((s: sel.SelectionState) => sel.SelectionState)) => {
    stateRef.current = typeof next === 'function' ? next(stateRef.current) : next;
    setSelectionState(stateRef.current);
  }, []);
  const [widths, setWidths] = useState<Record<string, number>>({});
  const [cache] = useState(() => new RowCache(loader, pageSize, query, bump));
  useLayoutEffect(() => cache.setLoader(loader), [cache, loader]);
  const scrollRef = useRef<HTMLDivElement>(null);

  // A new list: another tab or other landings.
  const firstKey = useRef(queryKey);
  useEffect(() => {
    if (firstKey.current === queryKey) return;
    firstKey.current = queryKey;
    const fresh = { sort: null, filters: {} };
    cache.reset(fresh);
    setQuery(fresh);
    setState(sel.initialSelection);
    bump();
  }, [queryKey, cache, setQuery, setState]);

  const changeQuery = useCallback(
    (next: Query) => {
      cache.reset(next);
      setQuery(next);
      setState(sel.initialSelection);
      bump();
    },
    [cache, setQuery, setState],
  );
  const { onQueryChange } = props;
  const userQuery = useCallback(
    (next: Query) => {
      changeQuery(next);
      onQueryChange?.(next);
    },
    [changeQuery, onQueryChange],
  );
  const onFilters = useCallback((filters: GridFilters) => userQuery({ ...query, filters }), [userQuery, query]);
  const onSort = useCallback((sort: GridSort | null) => userQuery({ ...query, sort }), [userQuery, query]);

  // The owner's query moved (the browser's back or forward): the list follows it.
  const outer = props.query;
  useEffect(() => {
    if (outer && !sameQuery(outer, queryRef.current)) changeQuery(outer);
  }, [outer, changeQuery]);

  const count = cache.ready ? cache.total : 0;

  const { columnLabel } = props;
  const columns = useMemo(() => {
    const shown = visibleColumns(cache.columns ?? props.columns ?? []);
    return columnLabel ? shown.map((c) => ({ ...c, label: columnLabel(c) })) : shown;
  }, [cache.columns, props.columns, columnLabel]);
  const widthOf = useCallback((key: string) => widths[key] ?? columns.find((c) => c.key === key)?.width ?? DEFAULT_WIDTH, [widths, columns]);
  const cellStyles = useMemo(() => columns.map((_, i) => ({ width: `var(--lg-c${i})` }) as CSSProperties), [columns]);
  const allWidths = useMemo(() => Object.fromEntries(columns.map((c) => [c.key, widthOf(c.key)])), [columns, widthOf]);
  const columnWidths = useMemo(() => columns.map((c) => allWidths[c.key]!), [columns, allWidths]);
  const columnsDrawn = useColumnWindow(scrollRef, columnWidths, checkWidth);
  const totalWidth = checkWidth + columnWidths.reduce((w, c) => w + c, 0);
  const rootStyle = useMemo(() => {
    const style: Record<string, string> = {};
    columns.forEach((c, i) => (style[`--lg-c${i}`] = `${allWidths[c.key]}px`));
    style['--lg-row-width'] = `${totalWidth}px`;
    return style as CSSProperties;
  }, [columns, allWidths, totalWidth]);

  // A list filtered elsewhere (the exports) has no filter row: one header row instead of two.
  const headRows = columns.some((c) => c.filter !== false) ? 2 : 1;
  const { size } = useSnapshot(ui);
  const geometry = useMemo(() => ({ ...GEOMETRIES[size], headerHeight: (GEOMETRIES[size].headerHeight / 2) * headRows }), [size, headRows]);
  const { virtualizer, rows, first, last, follow } = useRowVirtualizer(scrollRef, count, geometry);

  // The focused row's page at once, then the rows on screen, nothing in between: End on a million
  // leads loads two pages, not all of them. While the scrollbar is dragged, the screen's pages
  // wait for a pause.
  const scrolling = virtualizer.isScrolling;
  useEffect(() => {
    if (state.focus >= 0) void cache.ensure(state.focus, state.focus);
    if (!scrolling) return void cache.ensure(first, last);
    const timer = setTimeout(() => void cache.ensure(first, last), SCROLL_LOAD_DELAY_MS);
    return () => clearTimeout(timer);
  });

  const focusedRowVisible = state.focus >= first && state.focus <= last && count > 0;
  // The focused row stays in view. Keys and commands scroll to it before rendering (see `act`):
  // this catches the other ways the focus or the list changes (clicks, refreshes, new totals).
  useLayoutEffect(() => follow(state.focus), [follow, state.focus, count]);

  // Cells are clipped only when their text may not fit (see textFit.ts), measured in the cells' font.
  const [fit, setFit] = useState(() => clipAll);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el) setFit(() => measuredFit(fontOf(el)));
  }, [size]);
  const fits = useMemo(() => {
    const rooms = columns.map((c) => widthOf(c.key) - CELL_PADDING);
    return (text: string, column: number) => fit(text, rooms[column]);
  }, [fit, columns, widthOf]);

  const format = useMemo(() => props.format ?? defaultFormatter(locale), [props.format, locale]);
  // Translating is not free (the intl cache serialises its arguments): each row's label is made once.
  const selectLabel = useMemo(() => oncePerId((id) => t('grid.selectRow', { id: String(id) })), [t]);
  const loadingLabel = useMemo(() => t('grid.loading'), [t]);

  const act = useCallback(
    (action: GridAction) => {
      if (!selectable && (action.type === 'toggle' || action.type === 'selectAll')) return;
      const focusBefore = stateRef.current.focus;
      setState((s) => {
        const view: sel.RowsView = { count: cache.ready ? cache.total : 0, idAt: cache.idAt };
        switch (action.type) {
          case 'move':
            return sel.moveFocus(s, view, action.delta, selectable && action.extend);
          case 'edge':
            return sel.focusAt(s, view, action.to === 'first' ? 0 : view.count - 1, selectable && action.extend);
          case 'toggle':
            return sel.toggleFocused(s, view);
          case 'selectAll':
            return sel.selectAllStep(s, cache.loadedIds());
          case 'clear':
            return sel.clearSelection(s);
        }
      });
      // Scrolled before React renders: the new focus and the rows it brings into view render in one commit.
      if (stateRef.current.focus !== focusBefore) follow(stateRef.current.focus);
    },
    [cache, setState, follow, selectable],
  );

  const handle = useMemo(
    (): GridHandle => ({
      act,
      selectable,
      selection: () => {
        const s = stateRef.current;
        return {
          selected: s.selected,
          allMatching: s.allMatching,
          total: cache.ready ? cache.total : 0,
          totalExact: cache.totalExact,
          focusedId: cache.idAt(s.focus),
          ...queryRef.current,
        };
      },
      selectAllMatching: () => setState(sel.selectAllMatching),
      focusedRow: () => cache.rowAt(stateRef.current.focus),
      async selectFirst(n) {
        if (n > 0) await cache.ensure(0, n - 1);
        setState((s) => sel.selectFirst(s, { count: cache.total, idAt: cache.idAt }, n));
      },
      remove(ids) {
        const gone = new Set(ids);
        const removed = cache.remove(gone);
        setState((s) => sel.withoutRows(s, cache.total, removed, gone));
        bump();
      },
      async refresh() {
        // The focused row, then those after it: the focus goes to the first one still listed.
        const focusBefore = stateRef.current.focus;
        const candidates: RowId[] = [];
        for (let i = focusBefore; i < cache.total && candidates.length < FOLLOWERS; i++) {
          const id = cache.idAt(i);
          if (id === undefined) break;
          candidates.push(id);
        }
        await cache.refresh();
        const listed = new Set(cache.loadedIds());
        // Keys pressed while the list was reloading win: the focus is only carried over if it did not move.
        setState((s) => sel.reconcile(s, { count: cache.total, idAt: cache.idAt }, s.focus === focusBefore ? candidates : [], listed));
      },
      opens: onOpen !== undefined,
      open() {
        const row = cache.rowAt(stateRef.current.focus);
        if (row) onOpen?.(row);
      },
      focus: () => scrollRef.current?.focus({ preventScroll: true }),
      // The first text filter (Nom…), not the id's or a date's: that is what staff search by.
      focusFilters: () =>
        (
          scrollRef.current?.querySelector<HTMLInputElement>('[data-grid-filter="text"]') ??
          scrollRef.current?.querySelector<HTMLInputElement>('[data-grid-filter]')
        )?.focus(),
    }),
    [act, cache, setState, onOpen, selectable],
  );
  useImperativeHandle(props.handleRef, () => handle, [handle]);
  // A list that appears where the focus has nowhere to be (a route or tab change) takes it, so the
  // keys and screen readers start on the rows; a focused field or button keeps it, and so does a
  // tab reached by keyboard (the arrows go on along the tabs). A tab clicked with the mouse does
  // not: the list takes the keys as after a tab key (without it, x and Space acted on the tab).
  // Asked again when the first rows arrive, in case the list could not take it as it mounted.
  useEffect(() => {
    const active = document.activeElement;
    const clickedTab = active?.getAttribute('role') === 'tab' && !active.matches(':focus-visible');
    if (!active || active === document.body || active.id === 'main' || clickedTab) scrollRef.current?.focus({ preventScroll: true });
  }, [cache.ready]);
  // The grid commands (j, k, x, Home…) act on the grid the screen shows, from the moment it mounts.
  useProvideCommandContext({ grid: handle });

  const focusedId = cache.idAt(state.focus);
  const totalExact = cache.totalExact;
  useEffect(() => {
    onSelectionChange?.({
      selected: state.selected,
      allMatching: state.allMatching,
      total: count,
      totalExact,
      focusedId,
      filters: query.filters,
      sort: query.sort,
    });
  }, [onSelectionChange, state.selected, state.allMatching, count, totalExact, focusedId, query]);

  const onBodyClick = (e: MouseEvent<HTMLDivElement>) => {
    const anchor = (e.target as HTMLElement).closest<HTMLAnchorElement>('a[href]');
    if (anchor) {
      // A middle or modified click opens the link as the browser does; a plain one runs the owner's command.
      if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || !props.onLink) return;
      e.preventDefault();
      props.onLink(anchor.getAttribute('href')!);
      return;
    }
    const rowEl = (e.target as HTMLElement).closest<HTMLElement>('[data-index]');
    if (!rowEl) return;
    const index = Number(rowEl.dataset.index);
    const onCheck = (e.target as HTMLElement).hasAttribute('data-check');
    setState((s) => {
      const view = { count: cache.total, idAt: cache.idAt };
      if (!selectable) return sel.focusAt(s, view, index);
      if (e.shiftKey) return sel.focusAt(s, view, index, true);
      if (onCheck || e.ctrlKey || e.metaKey) return sel.toggleAt(s, view, index);
      return sel.focusAt(s, view, index);
    });
    if (e.shiftKey) window.getSelection()?.removeAllRanges();
    scrollRef.current?.focus({ preventScroll: true });
  };

  const onBodyDoubleClick = (e: MouseEvent<HTMLDivElement>) => {
    const rowEl = (e.target as HTMLElement).closest<HTMLElement>('[data-index]');
    const row = rowEl && !(e.target as HTMLElement).closest('button') ? cache.rowAt(Number(rowEl.dataset.index)) : undefined;
    if (row) onOpen?.(row);
  };

  // The row's context menu opens where it was asked for: at the pointer, or beside the focused row.
  const menuAnchor = useRef<HTMLDivElement>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const openMenuAt = (x: number, y: number) => {
    const anchor = menuAnchor.current;
    if (!anchor) return;
    anchor.style.left = `${x}px`;
    anchor.style.top = `${y}px`;
    setMenuOpen(true);
  };
  // A user offered nothing in the menu (its commands need another role) keeps the browser's own.
  const hasRowMenu = () => rowMenu !== undefined && commandsOf(rowMenu.menu).some(({ command }) => isPermitted(command, getCommandContext().user));
  const onBodyContextMenu = (e: MouseEvent<HTMLDivElement>) => {
    const rowEl = (e.target as HTMLElement).closest<HTMLElement>('[data-index]');
    if (!hasRowMenu() || !rowEl || !cache.rowAt(Number(rowEl.dataset.index))) return;
    e.preventDefault();
    const index = Number(rowEl.dataset.index);
    setState((s) => (s.focus === index ? s : sel.focusAt(s, { count: cache.total, idAt: cache.idAt }, index)));
    scrollRef.current?.focus({ preventScroll: true });
    openMenuAt(e.clientX, e.clientY);
  };

  const onGridKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // The menu key or Shift+F10 on the rows: the focused row's context menu.
    if (e.target === e.currentTarget && (e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10')) && hasRowMenu()) {
      const rowEl = document.getElementById(`${domId}-r${stateRef.current.focus}`);
      if (!rowEl || !cache.rowAt(stateRef.current.focus)) return;
      e.preventDefault();
      const box = rowEl.getBoundingClientRect();
      const grid = e.currentTarget.getBoundingClientRect();
      openMenuAt(grid.left + 24, box.bottom);
      return;
    }
    // Escape in a header filter gives the keys back to the rows (the filter keeps what was typed).
    if (e.key !== 'Escape' || e.target === e.currentTarget || !(e.target as HTMLElement).closest('.lg-head')) return;
    e.preventDefault();
    scrollRef.current?.focus({ preventScroll: true });
  };

  // The banner's button disappears once used: the keys go back to the grid.
  const banner = (update: (s: sel.SelectionState) => sel.SelectionState) => {
    setState(update);
    scrollRef.current?.focus({ preventScroll: true });
  };

  const someChecked = state.allMatching || state.selected.size > 0;
  const allChecked = count > 0 && (state.allMatching || state.selected.size >= count);
  const toggleAll = useCallback(() => act(someChecked ? { type: 'clear' } : { type: 'selectAll' }), [act, someChecked]);
  const onResize = useCallback((key: string, w: number) => setWidths((ws) => ({ ...ws, [key]: w })), []);

  return (
    <div className={`lg-grid-wrap ${props.className ?? ''}`}>
      {state.offerAll && !state.allMatching && count > state.selected.size && (
        <div className="lg-banner" role="status">
          {t('grid.loadedSelected', { count: state.selected.size })}{' '}
          <button type="button" className="lg-link" onClick={() => banner(sel.selectAllMatching)}>
            {t('grid.selectAllMatching', { total: count })}
          </button>
        </div>
      )}
      {state.allMatching && (
        <div className="lg-banner" role="status">
          {t('grid.allMatchingSelected', { total: count })}{' '}
          <button type="button" className="lg-link" onClick={() => banner(sel.clearSelection)}>
            {t('grid.clearSelection')}
          </button>
        </div>
      )}
      <div
        ref={scrollRef}
        role="grid"
        aria-label={props.label}
        aria-rowcount={count + headRows}
        aria-colcount={columns.length + (selectable ? 1 : 0)}
        aria-multiselectable={selectable ? true : undefined}
        aria-activedescendant={focusedRowVisible ? `${domId}-r${state.focus}` : undefined}
        tabIndex={0}
        className="lg-grid"
        style={rootStyle}
        onKeyDown={onGridKeyDown}
      >
        <div className="lg-canvas" style={{ height: virtualizer.getTotalSize(), width: totalWidth }}>
          <GridHeader
            columns={columns}
            cellStyles={cellStyles}
            widths={allWidths}
            sort={query.sort}
            filters={query.filters}
            checked={selectable ? (allChecked ? true : someChecked ? 'mixed' : false) : null}
            t={t}
            locale={locale}
            onSort={onSort}
            onFilters={onFilters}
            onResize={onResize}
            onToggleAll={toggleAll}
          />
          {/* Rows stay in their slots (rowSlots.ts); aria-owns gives assistive technologies the list's order. */}
          <div
            role="rowgroup"
            className="lg-body"
            onClick={onBodyClick}
            onDoubleClick={onBodyDoubleClick}
            onContextMenu={onBodyContextMenu}
            aria-owns={rowIds(domId, first, last)}
          >
            {rows.map((item) => {
              const row = cache.rowAt(item.index);
              return (
                <GridRow
                  key={item.index % rows.length}
                  domId={`${domId}-r${item.index}`}
                  index={item.index}
                  headRows={headRows}
                  row={row}
                  columns={columns}
                  window={columnsDrawn}
                  cellStyles={cellStyles}
                  start={item.start}
                  focused={item.index === state.focus}
                  selected={selectable ? sel.isSelected(state, row?.id) : null}
                  tone={row && rowTone ? rowTone(row) : undefined}
                  selectLabel={selectLabel(row?.id ?? item.index + 1)}
                  loadingLabel={loadingLabel}
                  format={format}
                  link={props.link}
                  fits={fits}
                />
              );
            })}
          </div>
        </div>
        {cache.ready && count === 0 && <div className="lg-empty">{t('grid.empty')}</div>}
        {cache.error != null && count === 0 && <div className="lg-empty lg-error">{t('grid.loadFailed')}</div>}
      </div>
      {rowMenu ? (
        <>
          <div ref={menuAnchor} className="lg-menu-anchor" aria-hidden="true" />
          <Popover triggerRef={menuAnchor} isOpen={menuOpen} onOpenChange={setMenuOpen} placement="bottom start" className="popover" aria-label={rowMenu.label}>
            <CommandMenu menu={rowMenu.menu} variant="items" label={rowMenu.label} onAction={() => setMenuOpen(false)} />
          </Popover>
        </>
      ) : null}
    </div>
  );
});

function oncePerId(label: (id: RowId) => string): (id: RowId) => string {
  const labels = new Map<RowId, string>();
  return (id) => {
    let text = labels.get(id);
    if (text === undefined) labels.set(id, (text = label(id)));
    return text;
  };
}

const formatters = new Map<string, (column: GridColumnSpec, value: unknown) => string>();

/** Dates and numbers in the user's locale; one Intl formatter per locale, reused by every cell. */
export function defaultFormatter(locale = 'fr') {
  let f = formatters.get(locale);
  if (!f) {
    const date = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' });
    const day = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeZone: 'UTC' });
    const number = new Intl.NumberFormat(locale);
    f = (column, value) => {
      if (value === null || value === undefined) return '';
      if (column.kind === 'date' && typeof value === 'string') {
        const d = new Date(value);
        if (Number.isNaN(d.getTime())) return value;
        return value.length === 10 ? day.format(d) : date.format(d);
      }
      if (column.kind === 'number' && typeof value === 'number' && column.key !== 'id') return number.format(value);
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
    };
    formatters.set(locale, f);
  }
  return f;
}
