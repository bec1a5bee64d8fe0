/**
 * Text that a spreadsheet would run as a formula (DESIGN.md §8), in every export format; also when
 * other control characters come first, since the xlsx writer drops them (XML forbids them).
 */
// eslint-disable-next-line no-control-regex
const formulaLike = /^(?:[\t\r\n]|[\x00-\x1F]*[=+\-@])/;

export type CellValue = string | number | null;

/** Prefixes formula-like text with a quote, so that it is shown, never evaluated. */
export function neutralise(value: CellValue): string | number {
  if (value === null) return '';
  if (typeof value === 'number') return value;
  return formulaLike.test(value) ? `'${value}` : value;
}
