/** Text that a spreadsheet would run as a formula (DESIGN.md §8), in every export format. */
const formulaLike = /^[=+\-@\t\r\n]/;

export type CellValue = string | number | null;

/** Prefixes formula-like text with a quote, so that it is shown, never evaluated. */
export function neutralise(value: CellValue): string | number {
  if (value === null) return '';
  if (typeof value === 'number') return value;
  return formulaLike.test(value) ? `'${value}` : value;
}
