// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useRowVirtualizer } from '../../../../src/grid/useRowVirtualizer';

const g = { rowHeight: 30, headerHeight: 64, overscan: 2 };

/** A scrolling element as a browser lays it out: `height` px high over `count` rows below the header. */
function scroller(height: number, count: number) {
  const el = document.createElement('div');
  const max = g.headerHeight + count * g.rowHeight - height;
  let top = 0;
  Object.defineProperties(el, {
    clientHeight: { get: () => height },
    clientWidth: { get: () => 1000 },
    scrollHeight: { get: () => g.headerHeight + count * g.rowHeight },
    scrollTop: { get: () => top, set: (v: number) => (top = Math.max(0, Math.min(max, v))) },
  });
  el.scrollTo = ((options: ScrollToOptions) => (el.scrollTop = options.top ?? top)) as typeof el.scrollTo;
  return el;
}

function setup(height = 364, count = 1000) {
  const el = scroller(height, count);
  const { result } = renderHook(() => useRowVirtualizer({ current: el }, count, g));
  const follow = (index: number) => act(() => result.current.follow(index));
  return { el, result, follow };
}

describe('grid rows on the virtualizer', () => {
  it('scrolls as little as needed to show a row in full, below the header', () => {
    const { el, follow } = setup();
    el.scrollTop = 300;
    el.dispatchEvent(new Event('scroll'));
    // Rows 10…19 show in full below the header.
    follow(12);
    follow(19);
    expect(el.scrollTop).toBe(300);
    follow(20);
    expect(el.scrollTop).toBe(330);
    follow(9);
    expect(el.scrollTop).toBe(270);
    follow(500);
    expect(el.scrollTop).toBe(500 * 30 + 30 + 64 - 364);
    follow(999);
    expect(el.scrollTop).toBe(64 + 1000 * 30 - 364);
    follow(0);
    expect(el.scrollTop).toBe(0);
  });

  it('draws the rows it scrolls to in the same render, in their slots', () => {
    const { result, follow } = setup();
    follow(500);
    const { rows, first, last } = result.current;
    expect(first).toBeLessThanOrEqual(500);
    expect(last).toBeGreaterThanOrEqual(500);
    expect(rows.map((r) => r.index % rows.length)).toEqual(rows.map((_, i) => i));
  });
});
