import { useCallback, useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { useSearchParams } from 'react-router';
import type { GridHandle } from '../grid/types';

/**
 * The tab of a Lives screen, kept in the URL (`?tab=create`; the first tab has none). `setTab` is
 * the tab list's own change (the focus stays on the tab clicked); `showTab`, for the tab keys,
 * also takes the focus into the new panel — the list's grid, or the form's field marked
 * `data-tab-entry` — since the one it had leaves with the old panel.
 */
export function useScreenTabs<T extends string>(tabs: readonly T[], gridRef: RefObject<GridHandle | null>) {
  const [search, setSearch] = useSearchParams();
  const requested = search.get('tab');
  const tab = tabs.includes(requested as T) ? (requested as T) : tabs[0];
  const setTab = useCallback((next: T) => setSearch(next === tabs[0] ? {} : { tab: next }, { replace: true }), [setSearch, tabs]);
  const pending = useRef<T | null>(null);
  const showTab = useCallback(
    (next: T) => {
      pending.current = next;
      setTab(next);
    },
    [setTab],
  );
  useEffect(() => {
    if (pending.current !== tab) return;
    pending.current = null;
    if (tab === tabs[0]) gridRef.current?.focus();
    else document.querySelector<HTMLElement>(`[data-tab-entry="${tab}"]`)?.focus();
  }, [tab, tabs, gridRef]);
  return { tab, setTab, showTab };
}

/**
 * Escape in a form's field leaves it for the current tab, where the screen's keys work again
 * (1, 2, the palette's actions): a field keeps every letter and digit typed. Popovers and lists
 * inside the form handle their own Escape first.
 */
export function escapeToTab(e: KeyboardEvent<HTMLElement>) {
  if (e.key !== 'Escape' || e.defaultPrevented || !(e.target as HTMLElement).matches('input, select, textarea')) return;
  e.preventDefault();
  e.currentTarget.closest('.screen-tabs')?.querySelector<HTMLElement>('[role=tab][aria-selected=true]')?.focus();
}
