/**
 * A page loader over a list the server sends whole (the accounts): filtered, sorted and sliced
 * in the browser with the same meaning as the server's lists — text contains (case and accents
 * ignored), a select's exact value, a date range 'start<>end' on the value's day.
 */
import { splitDateRange } from './columns';
import type { GridColumnSpec, GridFilters, GridSort, Row, RowLoader } from './types';

const fold = (v: unknown) =>
  String(v ?? '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();

function matches(row: Row, filters: GridFilters, columns: readonly GridColumnSpec[]) {
  return Object.entries(filters).every(([key, wanted]) => {
    const kind = columns.find((c) => c.key === key)?.kind ?? 'text';
    const value = row[key];
    if (kind === 'select') return String(value ?? '') === wanted;
    if (kind === 'date') {
      const [start, end] = splitDateRange(wanted);
      const day = String(value ?? '').slice(0, 10);
      return (!start || day >= start) && (!end || day <= end);
    }
    return fold(value).includes(fold(wanted));
  });
}

function compare(sort: GridSort) {
  const sign = sort.dir === 'asc' ? 1 : -1;
  return (a: Row, b: Row) => {
    const x = a[sort.key];
    const y = b[sort.key];
    if (typeof x === 'number' && typeof y === 'number') return (x - y) * sign;
    return String(x ?? '').localeCompare(String(y ?? ''), undefined, { sensitivity: 'base', numeric: true }) * sign;
  };
}

export function localLoader(fetchAll: (signal: AbortSignal) => Promise<readonly Row[]>, columns: readonly GridColumnSpec[]): RowLoader {
  return async (req, signal) => {
    const all = await fetchAll(signal);
    const kept = all.filter((row) => matches(row, req.filters, columns));
    if (req.sort) kept.sort(compare(req.sort));
    return { rows: kept.slice(req.offset, req.offset + req.limit), total: kept.length };
  };
}
