import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { rowRange, rowSlots, scrollToShow, type RowGeometry, type ScrollView } from './rowWindow';

/** A scroll less than this long ago counts as scrolling still. */
const SCROLL_IDLE_MS = 150;

export interface RowWindow {
  first: number;
  last: number;
  /** Row elements are keyed by index modulo `slots`. */
  slots: number;
  /** True while the user scrolls: a scroll the grid did not make itself, less than 150 ms ago. */
  scrolling(): boolean;
}

/**
 * The rows to draw in `scrollRef`, keeping row `follow` (the focus) in view whenever it or
 * `count` changes. Following is decided while rendering: the rows of the new position are
 * drawn in the same commit that moves the focus, and scrollTop is written once, after it.
 * `geometry` must be a constant.
 */
export function useRowWindow(scrollRef: RefObject<HTMLElement | null>, count: number, follow: number, geometry: RowGeometry): RowWindow {
  const [view, setView] = useState<ScrollView>({ top: 0, height: 0 });
  const [followed, setFollowed] = useState({ index: follow, count });
  if (followed.index !== follow || followed.count !== count) {
    setFollowed({ index: follow, count });
    const top = scrollToShow(view, follow, geometry);
    if (top !== view.top) setView({ ...view, top });
  }
  const [first, last] = rowRange(view, count, geometry);

  const viewRef = useRef(view);
  const scrolledAt = useRef(-Infinity);
  // viewRef is where the element is: scrollTop is written only when following moved the view.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && view.top !== viewRef.current.top) el.scrollTop = view.top;
    viewRef.current = view;
  }, [scrollRef, view]);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const read = (scrolled: boolean) => {
      const prev = viewRef.current;
      const next = { top: el.scrollTop, height: el.clientHeight };
      // The scroll that follows our own write of scrollTop.
      if (next.top === prev.top && next.height === prev.height) return;
      viewRef.current = next;
      if (scrolled) scrolledAt.current = performance.now();
      const [a, b] = rowRange(prev, count, geometry);
      const [c, d] = rowRange(next, count, geometry);
      // Rows scrolled in are drawn in the frame that scrolled them in, not one frame late.
      if (scrolled && (a !== c || b !== d)) flushSync(() => setView(next));
      else setView(next);
    };
    const onScroll = () => read(true);
    el.addEventListener('scroll', onScroll, { passive: true });
    const resize = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => read(false));
    resize?.observe(el);
    read(false);
    return () => {
      el.removeEventListener('scroll', onScroll);
      resize?.disconnect();
    };
  }, [scrollRef, count, geometry]);

  const scrolling = useCallback(() => performance.now() - scrolledAt.current < SCROLL_IDLE_MS, []);
  return { first, last, slots: rowSlots(view.height, geometry), scrolling };
}
