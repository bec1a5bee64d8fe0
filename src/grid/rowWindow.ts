// Which rows are on screen, and where to scroll to show one: rows have one fixed height, so it
// is arithmetic on the scroll offset, never a measurement.

export interface RowGeometry {
  rowHeight: number;
  /** The sticky header above the first row, inside the scrolling element. */
  headerHeight: number;
  /** Rows drawn beyond each edge of the screen. */
  overscan: number;
}

export interface ScrollView {
  /** The scrolling element's scrollTop. */
  top: number;
  /** Its clientHeight, header included. */
  height: number;
}

/**
 * How many rows are drawn for this height: the screen's rows and the overscan. Row elements are
 * keyed by index modulo this number, so a row scrolled out is reused for the row scrolled in.
 */
export const rowSlots = (height: number, g: RowGeometry) => Math.ceil(Math.max(0, height - g.headerHeight) / g.rowHeight) + 1 + 2 * g.overscan;

/**
 * First and last index drawn (inclusive; last < first when there is nothing to draw): always
 * `rowSlots` rows when the list has that many, so that every slot holds a row and none is
 * mounted or unmounted while scrolling.
 */
export function rowRange(view: ScrollView, count: number, g: RowGeometry): [number, number] {
  const slots = rowSlots(view.height, g);
  const first = Math.max(0, Math.min(Math.floor(view.top / g.rowHeight) - g.overscan, count - slots));
  return [first, Math.min(count, first + slots) - 1];
}

/**
 * The indices first…last in the order of their slots (index modulo `slots`): the order of the row
 * elements in the DOM, which then never changes while scrolling.
 */
export function slotOrder(first: number, last: number, slots: number): number[] {
  const indices = Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
  const k = (slots - (first % slots)) % slots;
  return k < indices.length ? [...indices.slice(k), ...indices.slice(0, k)] : indices;
}

/** The scrollTop that brings row `index` fully into view with the least movement. */
export function scrollToShow(view: ScrollView, index: number, g: RowGeometry): number {
  const body = view.height - g.headerHeight;
  const rowTop = index * g.rowHeight;
  if (index < 0 || body <= 0) return view.top;
  if (rowTop < view.top) return rowTop;
  if (rowTop + g.rowHeight > view.top + body) return rowTop + g.rowHeight - body;
  return view.top;
}
