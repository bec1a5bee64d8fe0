// Row elements are reused while scrolling. The virtualizer's window always holds the same number
// of rows, and each row is drawn in a slot (its index modulo that number) that keeps its element
// and its place in the DOM: a row scrolled out hands its element to the row scrolled in. Creating
// or moving an element makes the browser style and lay it out from scratch, a quarter of a
// scrolling frame; changing its text does not.
import type { Range } from '@tanstack/react-virtual';

/** Rows drawn for a scrolling element `height` px high: as many as it can show, and the overscan. */
export const slotCount = (height: number, rowHeight: number, overscan: number) => Math.ceil(Math.max(0, height) / rowHeight) + 1 + 2 * overscan;

/**
 * The virtualizer's range with its overscan, widened to `slots` rows whenever the list has that
 * many (the overscan goes to the other side at either end), so that no slot is ever left empty.
 */
export function fixedWindow(range: Range, slots: number): number[] {
  const needed = range.endIndex - range.startIndex + 1 + 2 * range.overscan;
  const length = Math.min(range.count, Math.max(slots, needed));
  const first = Math.max(0, Math.min(range.startIndex - range.overscan, range.count - length));
  return Array.from({ length }, (_, i) => first + i);
}

/** Consecutive rows in the order of their slots, index modulo their number: the DOM order. */
export function inSlotOrder<T extends { index: number }>(rows: readonly T[]): T[] {
  const n = rows.length;
  if (n === 0) return [];
  const k = (n - (rows[0].index % n)) % n;
  return [...rows.slice(k), ...rows.slice(0, k)];
}

/** The ids of rows first…last in list order, for `aria-owns`: the rows' order for assistive technologies. */
export function rowIds(domId: string, first: number, last: number): string | undefined {
  const ids: string[] = [];
  for (let i = first; i <= last; i++) ids.push(`${domId}-r${i}`);
  return ids.length ? ids.join(' ') : undefined;
}
