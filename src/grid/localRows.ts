import { compareNames } from '../shared/frenchOrder';
import { foldText } from '../shared/foldText';
import { splitDateRange } from './columns';
import type { GridColumnSpec, PageRequest, PageResult, Row, RowLoader } from './types';

/** A column's value as text to search and to sort words by (lists of names, numbers). */
export type RowText = (column: GridColumnSpec, row: Row) => string;

const plainText: RowText = (column, row) => {
  const v = row[column.key];
  return v === null || v === undefined ? '' : String(v);
};

function matches(column: GridColumnSpec, row: Row, filter: string, text: RowText): boolean {
  if (column.kind === 'date') {
    const [start, end] = splitDateRange(filter);
    const day = String(row[column.key] ?? '').slice(0, 10);
    return (!start || day >= start) && (!end || day <= end);
  }
  if (column.kind === 'select') return text(column, row) === filter;
  return foldText(text(column, row)).includes(foldText(filter.trim()));
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return compareNames(String(a ?? ''), String(b ?? ''));
}

/**
 * One page of a list the server answers whole (customers, rules, reports): filtered, sorted and
 * sliced in the browser, so those lists get the grid's filters and sort without a paged route.
 * The grid takes its columns from its own props (they draw cells and follow the language).
 */
export function localPage(rows: readonly Row[], columns: readonly GridColumnSpec[], req: PageRequest, text: RowText = plainText): PageResult {
  const filters = Object.entries(req.filters).flatMap(([key, value]) => {
    const column = columns.find((c) => c.key === key);
    return column && value !== '' ? [{ column, value }] : [];
  });
  let out = filters.length ? rows.filter((row) => filters.every((f) => matches(f.column, row, f.value, text))) : [...rows];
  const sortColumn = req.sort ? columns.find((c) => c.key === req.sort!.key) : undefined;
  if (sortColumn) {
    const dir = req.sort!.dir === 'asc' ? 1 : -1;
    const value = (row: Row) => (sortColumn.kind === 'number' || sortColumn.kind === 'date' ? row[sortColumn.key] : text(sortColumn, row));
    out = out.sort((a, b) => dir * compare(value(a), value(b)));
  }
  return { rows: out.slice(req.offset, req.offset + req.limit), total: out.length };
}

/** A grid loader over a whole list fetched by `fetchRows` (react-query's cache, usually). */
export function localLoader(fetchRows: () => Promise<readonly Row[]>, columns: readonly GridColumnSpec[], text?: RowText): RowLoader {
  return async (req) => localPage(await fetchRows(), columns, req, text);
}
