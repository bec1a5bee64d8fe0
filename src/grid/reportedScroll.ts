// The virtualizer hears of its own scroll writes at once, not from the scroll event the browser
// fires at the next frame: the rows that a focus move scrolls into view then render in the same
// commit as the focus. virtual-core takes a report made from within `scrollToFn` as the read-back
// of its write; the browser's event for that write, finding the offset already known, is ignored.
import { elementScroll, observeElementOffset } from '@tanstack/react-virtual';

type Report = (offset: number, isScrolling: boolean) => void;

const reports = new WeakMap<object, Report>();

/** `observeElementOffset` that also keeps the virtualizer's callback for `scrollAndReport`. */
export const observeOffset: typeof observeElementOffset = (instance, report) => {
  reports.set(instance, report);
  const stop = observeElementOffset(instance, report);
  return () => {
    reports.delete(instance);
    stop?.();
  };
};

/** `elementScroll` that reports where the element is right after writing it. */
export const scrollAndReport: typeof elementScroll = (offset, options, instance) => {
  elementScroll(offset, options, instance);
  const el = instance.scrollElement;
  // Not the user scrolling: `isScrolling` stays false, and the rows' pages are not held back.
  if (el && options.behavior !== 'smooth') reports.get(instance)?.(el.scrollTop, false);
};
