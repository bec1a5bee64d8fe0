import type { ColumnType } from '../../../src/api/landings/contract';

/**
 * Text that a spreadsheet would run as a formula (docs/decisions.md §8); also when other control
 * characters come first, which a reader may drop.
 */
// eslint-disable-next-line no-control-regex
const formulaLike = /^(?:[\t\r\n]|[\x00-\x1F]*[=+\-@])/;

export type CellValue = string | number | null;

export const isFormulaLike = (value: string) => formulaLike.test(value);

/** Prefixes formula-like text with a quote, so that a csv or txt reader shows it, never evaluates it. */
export function neutralise(value: CellValue): string | number {
  if (value === null) return '';
  if (typeof value === 'number') return value;
  return formulaLike.test(value) ? `'${value}` : value;
}

/**
 * A column of an export file: its label and what it holds, which sets a date cell's type in xlsx
 * and the width of the column in xlsx and pdf. `datetime` values are 'YYYY-MM-DD HH:MM:SS' (Paris
 * time), `date` values 'YYYY-MM-DD'.
 */
export interface SheetColumn {
  label: string;
  kind: ColumnType | 'id' | 'datetime' | 'code';
}

/** Typical width of a column's values, in characters (a long label widens it). */
export const typicalWidth: Record<SheetColumn['kind'], number> = {
  id: 8,
  datetime: 17,
  date: 11,
  number: 9,
  phone: 12,
  postal_code: 8,
  email: 26,
  select: 14,
  text: 16,
  code: 8,
};
