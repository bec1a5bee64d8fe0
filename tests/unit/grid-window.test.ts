import { describe, expect, it } from 'vitest';
import { rowRange, rowSlots, scrollToShow, slotOrder } from '../../src/grid/rowWindow';

const g = { rowHeight: 30, headerHeight: 64, overscan: 2 };

describe('grid row window', () => {
  it('draws the rows on screen and the overscan, within the list', () => {
    // 300 px under the header: rows 0…9 on screen, 15 slots.
    expect(rowSlots(364, g)).toBe(15);
    expect(rowRange({ top: 0, height: 364 }, 1000, g)).toEqual([0, 14]);
    expect(rowRange({ top: 3000, height: 364 }, 1000, g)).toEqual([98, 112]);
    // At the end of the list the overscan goes above.
    expect(rowRange({ top: 29_700, height: 364 }, 1000, g)).toEqual([985, 999]);
    expect(rowRange({ top: 0, height: 364 }, 4, g)).toEqual([0, 3]);
    const [first, last] = rowRange({ top: 0, height: 364 }, 0, g);
    expect(last).toBeLessThan(first);
  });

  it('fills every slot wherever it is scrolled, so that scrolling reuses rows', () => {
    for (const height of [0, 64, 100, 364, 901]) {
      for (let top = 0; top < 3000; top += 7) {
        const [first, last] = rowRange({ top, height }, 10_000, g);
        expect(last - first + 1).toBe(rowSlots(height, g));
        // Every row on screen, half hidden under the header or half shown at the bottom, is drawn.
        expect(first).toBeLessThanOrEqual(Math.floor(top / 30));
        expect(last).toBeGreaterThanOrEqual(Math.floor((top + Math.max(0, height - 64) - 1) / 30));
      }
    }
  });

  it('keeps each row element in its slot: the DOM order does not change as the window moves', () => {
    expect(slotOrder(0, 4, 5)).toEqual([0, 1, 2, 3, 4]);
    expect(slotOrder(3, 7, 5)).toEqual([5, 6, 7, 3, 4]);
    expect(slotOrder(5, 9, 5)).toEqual([5, 6, 7, 8, 9]);
    // A list shorter than the slots.
    expect(slotOrder(0, 2, 5)).toEqual([0, 1, 2]);
    expect(slotOrder(0, -1, 5)).toEqual([]);
    for (let first = 0; first < 20; first++) expect(slotOrder(first, first + 4, 5).map((i) => i % 5)).toEqual([0, 1, 2, 3, 4]);
  });

  it('scrolls as little as needed to show a row in full, below the header', () => {
    const view = { top: 300, height: 364 };
    expect(scrollToShow(view, 12, g)).toBe(300);
    expect(scrollToShow(view, 9, g)).toBe(270);
    expect(scrollToShow(view, 19, g)).toBe(300);
    expect(scrollToShow(view, 20, g)).toBe(330);
    expect(scrollToShow(view, 500, g)).toBe(500 * 30 + 30 - 300);
    // Not laid out yet: nothing to keep in view.
    expect(scrollToShow({ top: 0, height: 0 }, 500, g)).toBe(0);
  });
});
