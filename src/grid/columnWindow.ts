// Rows draw only the columns near the screen. A lead list has two dozen columns where a phone
// shows three and a desktop eight: each cell drawn is formatted, measured (textFit.ts), styled and
// laid out, and the first page's cells were most of the lead view's start on a phone. The header
// keeps every column: its filters stay reachable with Tab.
import { useCallback, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';

/** The columns first…last a row draws (every column when the width is not known yet). */
export interface ColumnWindow {
  first: number;
  last: number;
  /** Where the first column drawn starts: the room left before it. */
  before: number;
}

/** Left edges of the columns and the right edge of the last: `edges[i]` to `edges[i + 1]` is column i. */
export function columnEdges(widths: readonly number[]): number[] {
  const edges = [0];
  for (const w of widths) edges.push(edges[edges.length - 1]! + w);
  return edges;
}

/**
 * The columns within a screen's width of the part shown, on each side: a scroll of less than a
 * screen shows columns already drawn. `left` is the scroll position over the columns (the check
 * column excluded), `width` the width shown.
 */
export function columnWindow(edges: readonly number[], left: number, width: number): ColumnWindow {
  const count = edges.length - 1;
  if (width <= 0 || count <= 0) return { first: 0, last: count - 1, before: 0 };
  const from = left - width;
  const to = left + 2 * width;
  let first = 0;
  while (first < count - 1 && edges[first + 1]! <= from) first++;
  let last = first;
  while (last < count - 1 && edges[last + 1]! < to) last++;
  return { first, last, before: edges[first]! };
}

const sameWindow = (a: ColumnWindow, b: ColumnWindow) => a.first === b.first && a.last === b.last;

/**
 * The column window of a scrolling element, followed as it scrolls and resizes. It changes (and
 * the rows render) only when a scroll or a resize brings other columns within reach. Its width
 * comes from a ResizeObserver and its position from its scroll events, never read from the
 * element: a read in a commit makes the browser lay the page out there and again after.
 */
export function useColumnWindow(scrollRef: RefObject<HTMLElement | null>, widths: readonly number[], offset: number): ColumnWindow {
  const edges = useMemo(() => columnEdges(widths), [widths]);
  const [view, setView] = useState({ left: 0, width: 0 });
  const latest = useRef({ edges, left: 0, width: 0 });
  const update = useCallback(() => {
    const { edges: reach, ...next } = latest.current;
    const windowOf = (v: typeof next) => columnWindow(reach, v.left - offset, v.width);
    setView((prev) => (prev.width === next.width && sameWindow(windowOf(prev), windowOf(next)) ? prev : next));
  }, [offset]);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const onScroll = () => {
      latest.current.left = el.scrollLeft;
      update();
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    // Without a ResizeObserver (jsdom), the width is read once.
    const observer =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(([entry]) => {
            latest.current.width = entry!.contentRect.width;
            update();
          });
    if (observer) observer.observe(el);
    else {
      latest.current.width = el.clientWidth;
      update();
    }
    return () => {
      el.removeEventListener('scroll', onScroll);
      observer?.disconnect();
    };
  }, [scrollRef, update]);
  // Other columns or widths: the position kept since the last change of window may now reach others.
  useLayoutEffect(() => {
    latest.current.edges = edges;
    update();
  }, [edges, update]);
  return useMemo(() => columnWindow(edges, view.left - offset, view.width), [edges, view, offset]);
}
