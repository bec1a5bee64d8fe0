import type { ColumnKind, GridColumnSpec } from './types';

/** Kept in the data (reports refer to it) but never shown in the cells. */
const ALWAYS_HIDDEN = new Set(['rapport_id']);

const DEFAULT_WIDTHS: Record<string, number> = { id: 84, created_at: 196, updated_at: 196, entry_status: 110, value: 84, departement: 70 };

export const defaultWidth = (key: string) => DEFAULT_WIDTHS[key] ?? 140;

export function defaultKind(key: string): ColumnKind {
  if (key.endsWith('_at') || key === 'date') return 'date';
  if (key === 'id' || key === 'value') return 'number';
  return 'text';
}

/** Columns from plain keys, for lists that only give their keys. */
export function keysToColumns(keys: readonly string[], label: (key: string) => string = (k) => k): GridColumnSpec[] {
  return keys.map((key) => ({ key, label: label(key), kind: defaultKind(key) }));
}

export const visibleColumns = (columns: readonly GridColumnSpec[]) => columns.filter((c) => !c.hidden && !ALWAYS_HIDDEN.has(c.key));

/** Row colour where the list has a value column: success from 100, warning from 50. */
export function toneOf(value: unknown): 'success' | 'warning' | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) return undefined;
  if (n >= 100) return 'success';
  if (n >= 50) return 'warning';
  return undefined;
}

/** 'YYYY-MM-DD<>YYYY-MM-DD' as the API takes date filters (either side may be empty); '' for no filter. */
export function dateRangeFilter(start: string, end: string): string {
  return start || end ? `${start}<>${end}` : '';
}

export function splitDateRange(filter: string | undefined): [string, string] {
  const [start = '', end = ''] = (filter ?? '').split('<>');
  return [start, end];
}
