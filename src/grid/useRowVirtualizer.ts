import { observeElementRect, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useState, type RefObject } from 'react';
import { observeOffset, scrollAndReport } from './reportedScroll';
import { fixedWindow, inSlotOrder, slotCount } from './rowSlots';

export interface RowGeometry {
  rowHeight: number;
  /** The sticky header above the first row, inside the scrolling element. */
  headerHeight: number;
  /** Rows drawn beyond each edge of the screen. */
  overscan: number;
}

/**
 * The grid's rows, virtualized by @tanstack/react-virtual with one fixed row height: the rows to
 * draw, in the order of their slots (rowSlots.ts), and `follow`, which scrolls a row fully into
 * view below the header when it is not. A new `geometry` (the interface size) measures the rows again.
 */
export function useRowVirtualizer(scrollRef: RefObject<HTMLElement | null>, count: number, geometry: RowGeometry) {
  const { rowHeight, headerHeight, overscan } = geometry;
  const [height, setHeight] = useState(0);
  const rangeExtractor = useCallback((range: Range) => fixedWindow(range, slotCount(height, rowHeight, overscan)), [height, rowHeight, overscan]);
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler here: the rows are memoised by hand
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    paddingStart: headerHeight,
    // scrollToIndex puts a row below the sticky header, not under it.
    scrollPaddingStart: headerHeight,
    overscan,
    rangeExtractor,
    // Rows scrolled in are drawn in the frame that scrolled them in: the scroll event renders them.
    useFlushSync: true,
    // The window's length follows the element's height.
    observeElementRect: (instance, onRect) =>
      observeElementRect(instance, (rect) => {
        setHeight(rect.height);
        onRect(rect);
      }),
    observeElementOffset: observeOffset,
    scrollToFn: scrollAndReport,
  });

  useLayoutEffect(() => virtualizer.measure(), [virtualizer, rowHeight, headerHeight]);

  const follow = useCallback(
    (index: number) => {
      if (index < 0 || index >= virtualizer.options.count || !virtualizer.scrollRect) return;
      // Whether the row is in view is read from the rows drawn, not asked of scrollToIndex: its
      // bottom alignment reads the element's scroll height, a forced layout after a commit.
      const top = (virtualizer.scrollOffset ?? 0) + headerHeight;
      const bottom = (virtualizer.scrollOffset ?? 0) + virtualizer.scrollRect.height;
      const row = virtualizer.getVirtualItems().find((item) => item.index === index);
      if (!row || row.start < top || row.end > bottom) virtualizer.scrollToIndex(index);
    },
    [virtualizer, headerHeight],
  );

  const items = virtualizer.getVirtualItems();
  return {
    virtualizer,
    rows: inSlotOrder(items),
    first: items.length ? items[0].index : 0,
    last: items.length ? items[items.length - 1].index : -1,
    follow,
  };
}
