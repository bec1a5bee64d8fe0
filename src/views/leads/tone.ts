import type { RowTone } from '../../grid/types';

/** The colour of a row with a value (leads available): success from 100, warning from 50 (docs/product.md §2). */
export function toneOf(value: unknown): RowTone {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) return undefined;
  if (n >= 100) return 'success';
  if (n >= 50) return 'warning';
  return undefined;
}
