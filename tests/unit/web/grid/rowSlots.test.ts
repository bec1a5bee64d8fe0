import { Virtualizer, type Range } from '@tanstack/react-virtual';
import { describe, expect, it } from 'vitest';
import { fixedWindow, inSlotOrder, rowIds, slotCount } from '../../../../src/grid/rowSlots';

const ROW = 30;
const HEADER = 64;
const OVERSCAN = 2;

/** The rows @tanstack/react-virtual draws for a scroll position, with the grid's options. */
function drawn(top: number, height: number, count: number): number[] {
  const v = new Virtualizer<Element, Element>({
    count,
    getScrollElement: () => null,
    estimateSize: () => ROW,
    paddingStart: HEADER,
    overscan: OVERSCAN,
    rangeExtractor: (range: Range) => fixedWindow(range, slotCount(height, ROW, OVERSCAN)),
    initialRect: { width: 1000, height },
    initialOffset: top,
    scrollToFn: () => undefined,
    observeElementRect: () => undefined,
    observeElementOffset: () => undefined,
  });
  return v.getVirtualItems().map((item) => item.index);
}

describe('grid row slots', () => {
  it('draws the rows on screen and the overscan, within the list', () => {
    // 364 px high, the header included: at most 14 rows show in part, 18 slots with the overscan.
    expect(slotCount(364, ROW, OVERSCAN)).toBe(18);
    expect(drawn(0, 364, 1000)).toEqual(range(0, 17));
    // Rows 97…109 show: the overscan on both sides, and the one slot to spare below.
    expect(drawn(3000, 364, 1000)).toEqual(range(95, 112));
    // At the end of the list the overscan goes above.
    expect(drawn(HEADER + 1000 * ROW - 364, 364, 1000)).toEqual(range(982, 999));
    expect(drawn(0, 364, 4)).toEqual([0, 1, 2, 3]);
    expect(drawn(0, 364, 0)).toEqual([]);
  });

  it('fills every slot wherever it is scrolled, so that scrolling reuses rows', () => {
    for (const height of [64, 100, 364, 901]) {
      for (let top = 0; top < 3000; top += 7) {
        const rows = drawn(top, height, 2000);
        expect(rows).toHaveLength(slotCount(height, ROW, OVERSCAN));
        // Consecutive, and every row on screen (under the header or half shown at the bottom) is drawn.
        expect(rows).toEqual(range(rows[0], rows[rows.length - 1]));
        expect(rows[0]).toBeLessThanOrEqual(Math.max(0, Math.floor((top - HEADER) / ROW)));
        expect(rows[rows.length - 1]).toBeGreaterThanOrEqual(Math.floor((top + height - HEADER - 1) / ROW));
      }
    }
  });

  it('keeps each row element in its slot: the DOM order does not change as the window moves', () => {
    const at = (first: number, n: number) => range(first, first + n - 1).map((index) => ({ index }));
    expect(inSlotOrder(at(0, 5)).map((r) => r.index)).toEqual([0, 1, 2, 3, 4]);
    expect(inSlotOrder(at(3, 5)).map((r) => r.index)).toEqual([5, 6, 7, 3, 4]);
    expect(inSlotOrder(at(5, 5)).map((r) => r.index)).toEqual([5, 6, 7, 8, 9]);
    expect(inSlotOrder([])).toEqual([]);
    for (let first = 0; first < 20; first++) expect(inSlotOrder(at(first, 5)).map((r) => r.index % 5)).toEqual([0, 1, 2, 3, 4]);
  });

  it('names the rows in list order for aria-owns', () => {
    expect(rowIds('g', 3, 5)).toBe('g-r3 g-r4 g-r5');
    expect(rowIds('g', 0, -1)).toBeUndefined();
  });
});

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
