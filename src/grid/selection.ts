// The grid's focus and selection model: pure functions over an immutable state, so every
// keyboard and mouse gesture is unit-tested without a DOM.
import type { RowId } from './types';

export interface SelectionState {
  /** Index of the focused row, -1 when the list is empty. */
  focus: number;
  /** Where a shift-range starts. */
  anchor: number;
  selected: ReadonlySet<RowId>;
  /** The selection as it was when the anchor was set: a range is added to it, never merged into it. */
  base: ReadonlySet<RowId>;
  /** "Select all N matching": the selection is the current filter, run on the server. */
  allMatching: boolean;
  /** After mod+a: the grid offers to widen the selection to every matching row. */
  offerAll: boolean;
}

/** What the model needs to know about the rows: how many, and the id at an index when it is loaded. */
export interface RowsView {
  count: number;
  idAt(index: number): RowId | undefined;
}

const EMPTY: ReadonlySet<RowId> = new Set();

export const initialSelection: SelectionState = { focus: 0, anchor: 0, selected: EMPTY, base: EMPTY, allMatching: false, offerAll: false };

const clamp = (i: number, count: number) => (count <= 0 ? -1 : Math.max(0, Math.min(count - 1, i)));

function rangeIds(rows: RowsView, from: number, to: number): RowId[] {
  const ids: RowId[] = [];
  for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
    const id = rows.idAt(i);
    if (id !== undefined) ids.push(id);
  }
  return ids;
}

/** Moves the focus to `index`; with `extend`, the selection becomes base + the anchor…focus range. */
export function focusAt(s: SelectionState, rows: RowsView, index: number, extend = false): SelectionState {
  const focus = clamp(index, rows.count);
  if (!extend) return { ...s, focus, anchor: focus, base: s.selected };
  const anchor = s.anchor < 0 ? Math.max(0, s.focus) : s.anchor;
  const selected = new Set(s.base);
  for (const id of rangeIds(rows, anchor, focus)) selected.add(id);
  return { ...s, focus, anchor, selected, allMatching: false, offerAll: false };
}

export const moveFocus = (s: SelectionState, rows: RowsView, delta: number, extend = false) => focusAt(s, rows, (s.focus < 0 ? 0 : s.focus) + delta, extend);

/** x / space / a checkbox click: toggles one row and makes it the new anchor. */
export function toggleAt(s: SelectionState, rows: RowsView, index: number): SelectionState {
  const focus = clamp(index, rows.count);
  const id = rows.idAt(focus);
  if (id === undefined) return { ...s, focus };
  const selected = new Set(s.selected);
  if (selected.has(id)) selected.delete(id);
  else selected.add(id);
  return { focus, anchor: focus, selected, base: selected, allMatching: false, offerAll: false };
}

export const toggleFocused = (s: SelectionState, rows: RowsView) => toggleAt(s, rows, s.focus);

/** mod+a: every loaded row. */
export function selectLoaded(s: SelectionState, loadedIds: Iterable<RowId>): SelectionState {
  const selected = new Set(loadedIds);
  return { ...s, selected, base: selected, allMatching: false, offerAll: true };
}

/** mod+a once selects the loaded rows; pressed again while the banner offers more, every matching row. */
export const selectAllStep = (s: SelectionState, loadedIds: Iterable<RowId>): SelectionState =>
  s.offerAll && !s.allMatching ? selectAllMatching(s) : selectLoaded(s, loadedIds);

/** 'Nombre de résultats': exactly the first n rows of the list. */
export function selectFirst(s: SelectionState, rows: RowsView, n: number): SelectionState {
  const selected = new Set(n > 0 ? rangeIds(rows, 0, Math.min(n, rows.count) - 1) : []);
  return { ...s, selected, base: selected, allMatching: false, offerAll: false };
}

export const selectAllMatching = (s: SelectionState): SelectionState => ({ ...s, allMatching: true, offerAll: false });

export const clearSelection = (s: SelectionState): SelectionState => ({ ...s, selected: EMPTY, base: EMPTY, allMatching: false, offerAll: false });

/**
 * After the list was reloaded: the focus follows its lead when the lead is still listed;
 * otherwise it goes to the first of the leads that came after it (`candidates`, the focused
 * lead first) still listed, and failing that stays at the same index. Selected leads that left
 * the list are dropped.
 */
export function reconcile(s: SelectionState, rows: RowsView, candidates: readonly RowId[], listed: ReadonlySet<RowId>): SelectionState {
  let focus = clamp(s.focus, rows.count);
  const target = candidates.find((id) => listed.has(id));
  if (target !== undefined) {
    for (let i = 0; i < rows.count; i++) {
      if (rows.idAt(i) === target) {
        focus = i;
        break;
      }
    }
  }
  const selected = new Set([...s.selected].filter((id) => listed.has(id)));
  return { focus, anchor: focus, selected, base: selected, allMatching: s.allMatching, offerAll: false };
}

/**
 * Rows left the list (someone else's change, `removed` their former indexes in order): the focus
 * and the anchor stay on their rows, or go to the row that took the place of theirs; the rows
 * that left are no longer selected.
 */
export function withoutRows(s: SelectionState, count: number, removed: readonly number[], ids: ReadonlySet<RowId>): SelectionState {
  const shift = (i: number) => clamp(i - removed.filter((r) => r < i).length, count);
  const keep = (set: ReadonlySet<RowId>) => new Set([...set].filter((id) => !ids.has(id)));
  return { ...s, focus: shift(s.focus), anchor: shift(s.anchor), selected: keep(s.selected), base: keep(s.base), offerAll: false };
}

export const isSelected = (s: SelectionState, id: RowId | undefined) => id !== undefined && (s.allMatching || s.selected.has(id));
