import type { ColumnKind, GridColumnSpec } from './types';

export const DEFAULT_WIDTH = 140;

export function defaultKind(key: string): ColumnKind {
  if (key.endsWith('_at') || key === 'date') return 'date';
  if (key === 'id' || key === 'value') return 'number';
  return 'text';
}

/** Columns from plain keys, for lists that only give their keys. */
export function keysToColumns(keys: readonly string[], label: (key: string) => string = (k) => k): GridColumnSpec[] {
  return keys.map((key) => ({ key, label: label(key), kind: defaultKind(key) }));
}

export const visibleColumns = (columns: readonly GridColumnSpec[]) => columns.filter((c) => !c.hidden);

/** 'YYYY-MM-DD<>YYYY-MM-DD' as the API takes date filters (either side may be empty); '' for no filter. */
export function dateRangeFilter(start: string, end: string): string {
  return start || end ? `${start}<>${end}` : '';
}

export function splitDateRange(filter: string | undefined): [string, string] {
  const [start = '', end = ''] = (filter ?? '').split('<>');
  return [start, end];
}
