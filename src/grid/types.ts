import type { ReactNode } from 'react';

export type RowId = number | string;

export type Row = { id: RowId } & Record<string, unknown>;

export type SortDir = 'asc' | 'desc';

export interface GridSort {
  key: string;
  dir: SortDir;
}

/** Column filters as the server takes them: text as typed, dates as 'YYYY-MM-DD<>YYYY-MM-DD'. */
export type GridFilters = Readonly<Record<string, string>>;

/** What a list shows of its rows: the filters and the sort. */
export interface GridQuery {
  sort: GridSort | null;
  filters: GridFilters;
}

export interface PageRequest {
  offset: number;
  limit: number;
  sort: GridSort | null;
  filters: GridFilters;
}

export interface PageResult {
  rows: Row[];
  /** How many rows match the filters in all. */
  total: number;
  /** Present when `total` is an estimate: asks for the exact number, which then replaces it. */
  exactTotal?: () => Promise<number>;
  /** The columns of the list, in display order (the lead list's `keys`). */
  columns?: GridColumnSpec[];
}

/** Loads one page of rows; the grid calls it as the user scrolls or moves the focus. */
export type RowLoader = (req: PageRequest, signal: AbortSignal) => Promise<PageResult>;

/** How a column is shown and filtered: text contains, number, date range, or one of `options`. */
export type ColumnKind = 'text' | 'number' | 'date' | 'select';

export interface GridColumnSpec {
  key: string;
  label: string;
  kind: ColumnKind;
  options?: readonly string[];
  /** How an option reads in the select filter (translated); the value itself when absent. */
  optionLabel?: (value: string) => string;
  /** Kept in the rows, never shown in the cells (the lead list's rapport_id). */
  hidden?: boolean;
  /** Starting width in pixels (140 when absent); the user may resize. */
  width?: number;
  /**
   * Draws the cell instead of its text (a rule's fill bar, a row's buttons). Buttons drawn here
   * stay out of the tab order: the grid's keys reach the same commands on the focused row.
   */
  cell?: (row: Row) => ReactNode;
  /** False when the list is filtered elsewhere (the exports' filter bar): no header filter. */
  filter?: boolean;
  /** False when the server cannot sort by it. */
  sort?: boolean;
}

/** A row's colour, decided by the list's owner (the lead list's value, a report's fill). */
export type RowTone = 'success' | 'warning' | undefined;

export type GridAction =
  | { type: 'move'; delta: number; extend: boolean }
  | { type: 'edge'; to: 'first' | 'last'; extend: boolean }
  | { type: 'toggle' }
  | { type: 'selectAll' }
  | { type: 'clear' };

/** What the owner and the grid commands (grid.commands.ts) can do to a mounted grid. */
export interface GridHandle {
  act(action: GridAction): void;
  /** False for a list without selection (GridProps.selectable): only the focus moves. */
  selectable: boolean;
  /** The selection as it is now, even before the next render. */
  selection(): GridSelectionInfo;
  selectAllMatching(): void;
  /** Selects exactly the first n rows of the list, loading them first. */
  selectFirst(n: number): Promise<void>;
  /** Takes rows out of the list without reloading it (others moved them): the focus stays on its row, or the next one. */
  remove(ids: readonly RowId[]): void;
  /** Reloads the list; the focus stays on its row, or moves to the next one when it left. */
  refresh(): Promise<void>;
  /** Whether the list opens its rows (Enter, double click), and opening the focused one. */
  opens: boolean;
  open(): void;
  focus(): void;
  focusFilters(): void;
  /** The focused row, when it is loaded. */
  focusedRow(): Row | undefined;
}

/** What the grid tells its owner whenever the focus, the selection or the list changes. */
export interface GridSelectionInfo {
  selected: ReadonlySet<RowId>;
  allMatching: boolean;
  /** Rows matching the current filters. */
  total: number;
  /** False while `total` is an estimate. */
  totalExact: boolean;
  focusedId: RowId | undefined;
  filters: GridFilters;
  sort: GridSort | null;
}
