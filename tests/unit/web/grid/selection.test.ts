// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { provideCommandContext } from '../../../../src/commands/context';
import { matchStrokes } from '../../../../src/commands/hotkeys';
import '../../../../src/grid/grid.commands';
import type { GridHandle } from '../../../../src/grid/types';
import { toneOf } from '../../../../src/views/leads/tone';
import * as sel from '../../../../src/grid/selection';
import { dateRangeFilter, splitDateRange, visibleColumns, keysToColumns } from '../../../../src/grid/columns';

const rows = (count: number, loaded = count): sel.RowsView => ({ count, idAt: (i) => (i >= 0 && i < loaded ? 100 + i : undefined) });
const ids = (s: sel.SelectionState) => [...s.selected].sort((a, b) => Number(a) - Number(b));

describe('grid selection model', () => {
  it('moves the focus and clamps it to the list', () => {
    let s = sel.initialSelection;
    s = sel.moveFocus(s, rows(3), 1);
    s = sel.moveFocus(s, rows(3), 1);
    s = sel.moveFocus(s, rows(3), 1);
    expect(s.focus).toBe(2);
    s = sel.moveFocus(s, rows(3), -10);
    expect(s.focus).toBe(0);
    expect(sel.moveFocus(s, rows(0), 1).focus).toBe(-1);
  });

  it('toggles the focused row and keeps other rows', () => {
    let s = sel.toggleFocused(sel.initialSelection, rows(5));
    s = sel.moveFocus(s, rows(5), 2);
    s = sel.toggleFocused(s, rows(5));
    expect(ids(s)).toEqual([100, 102]);
    s = sel.toggleFocused(s, rows(5));
    expect(ids(s)).toEqual([100]);
  });

  it('extends a range from the anchor and shrinks it back, keeping what was selected before', () => {
    let s = sel.toggleAt(sel.initialSelection, rows(10), 8); // 108 selected, anchor 8
    s = sel.focusAt(s, rows(10), 2); // anchor moves to 2, base {108}
    s = sel.moveFocus(s, rows(10), 1, true);
    s = sel.moveFocus(s, rows(10), 1, true);
    expect(ids(s)).toEqual([102, 103, 104, 108]);
    s = sel.moveFocus(s, rows(10), -1, true);
    expect(ids(s)).toEqual([102, 103, 108]);
    // Upwards past the anchor.
    s = sel.moveFocus(s, rows(10), -3, true);
    expect(ids(s)).toEqual([100, 101, 102, 108]);
  });

  it('shift+click selects from the anchor to the clicked row', () => {
    let s = sel.toggleAt(sel.initialSelection, rows(10), 1);
    s = sel.focusAt(s, rows(10), 4, true);
    expect(ids(s)).toEqual([101, 102, 103, 104]);
    expect(s.focus).toBe(4);
  });

  it('selects every loaded row, offers all matching, then clears', () => {
    let s = sel.selectLoaded(sel.initialSelection, [1, 2, 3]);
    expect(s.offerAll).toBe(true);
    s = sel.selectAllMatching(s);
    expect(s.allMatching).toBe(true);
    expect(sel.isSelected(s, 999)).toBe(true);
    s = sel.clearSelection(s);
    expect(s.allMatching).toBe(false);
    expect(s.selected.size).toBe(0);
    expect(sel.isSelected(s, 1)).toBe(false);
  });

  it('mod+a twice widens the loaded rows to every matching row', () => {
    let s = sel.selectAllStep(sel.initialSelection, [1, 2]);
    expect(s).toMatchObject({ offerAll: true, allMatching: false });
    s = sel.selectAllStep(s, [1, 2]);
    expect(s.allMatching).toBe(true);
    // Once everything matching is selected, mod+a starts again from the loaded rows.
    expect(sel.selectAllStep(s, [1, 2])).toMatchObject({ offerAll: true, allMatching: false });
  });

  it('selects exactly the first n rows', () => {
    expect(ids(sel.selectFirst(sel.toggleAt(sel.initialSelection, rows(10), 9), rows(10), 3))).toEqual([100, 101, 102]);
    expect(sel.selectFirst(sel.initialSelection, rows(2), 500).selected.size).toBe(2);
    expect(sel.selectFirst(sel.initialSelection, rows(10), 0).selected.size).toBe(0);
  });

  it('after a reload, follows the focused lead, or goes to the next lead still listed', () => {
    const before = sel.focusAt(sel.toggleAt(sel.initialSelection, rows(10), 5), rows(10), 5);
    // The lead 105 moved to index 2.
    const moved: sel.RowsView = { count: 10, idAt: (i) => [110, 111, 105, 112][i] };
    expect(sel.reconcile(before, moved, [105, 106], new Set([110, 111, 105, 112])).focus).toBe(2);
    // Leads 103 to 105 left: the focus goes to 106, now at index 3; the selection forgets 105.
    const after: sel.RowsView = { count: 7, idAt: (i) => (i < 3 ? 100 + i : 103 + i) };
    const s = sel.reconcile(before, after, [105, 106, 107], new Set([100, 101, 102, 106, 107, 108, 109]));
    expect(after.idAt(s.focus)).toBe(106);
    expect(s.selected.size).toBe(0);
    // The last lead left: the focus goes to the new last one.
    const last = sel.focusAt(sel.initialSelection, rows(3), 2);
    expect(sel.reconcile(last, rows(2), [102], new Set([100, 101])).focus).toBe(1);
  });
});

describe('grid keys', () => {
  // The grid's keys are commands (grid.commands.ts), matched by the one hotkey listener's rules.
  const user = { id: 1, email: 'a@x.fr', name: 'A', admin: false, role: 'normal' as const };
  const selecting = { selectable: true } as GridHandle;
  const key = (k: string, mods: Partial<{ shiftKey: boolean; ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}, grid = selecting) => {
    const slot = provideCommandContext({ user, grid });
    try {
      return matchStrokes([{ key: k, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...mods }], false).exact.map((c) => c.id);
    } finally {
      slot.remove();
    }
  };

  it('matches the typed character, j/k and arrows, shift to extend', () => {
    expect(key('j')).toEqual(['grid.next']);
    expect(key('ArrowUp')).toEqual(['grid.prev']);
    expect(key('J', { shiftKey: true })).toEqual(['grid.extendNext']);
    expect(key('ArrowDown', { shiftKey: true })).toEqual(['grid.extendNext']);
    expect(key('End')).toEqual(['grid.last']);
    expect(key('PageDown')).toEqual(['grid.pageDown']);
  });

  it('x and space toggle, mod+a selects all, escape clears, others are ignored', () => {
    expect(key('x')).toEqual(['grid.toggle']);
    expect(key(' ')).toEqual(['grid.toggle']);
    expect(key('a', { ctrlKey: true })).toEqual(['grid.selectAll']);
    expect(key('Escape')).toEqual(['grid.clear']);
    expect(key('a')).toEqual([]);
    expect(key('j', { altKey: true })).toEqual([]);
  });

  it('only moves in a list without selection: x, Space, Shift+arrows, mod+a and Escape are free', () => {
    const lookOnly = { selectable: false } as GridHandle;
    expect(key('j', {}, lookOnly)).toEqual(['grid.next']);
    expect(key('End', {}, lookOnly)).toEqual(['grid.last']);
    for (const [k, mods] of [
      ['x', {}],
      [' ', {}],
      ['J', { shiftKey: true }],
      ['a', { ctrlKey: true }],
      ['Escape', {}],
    ] as const)
      expect(key(k, mods, lookOnly), k).toEqual([]);
  });

  it('does nothing where no grid is shown', () => {
    const slot = provideCommandContext({ user });
    expect(matchStrokes([{ key: 'j', shiftKey: false, ctrlKey: false, metaKey: false, altKey: false }], false).exact).toEqual([]);
    slot.remove();
  });
});

describe('grid columns', () => {
  it('hides the columns marked hidden', () => {
    const cols = [...keysToColumns(['id', 'created_at', 'nom']), { key: 'rapport_id', label: 'r', kind: 'number' as const, hidden: true }];
    expect(visibleColumns(cols).map((c) => c.key)).toEqual(['id', 'created_at', 'nom']);
    expect(cols[1].kind).toBe('date');
  });

  it('colours rows from the value: success from 100, warning from 50', () => {
    expect(toneOf(100)).toBe('success');
    expect(toneOf('250')).toBe('success');
    expect(toneOf(99)).toBe('warning');
    expect(toneOf(50)).toBe('warning');
    expect(toneOf(49)).toBeUndefined();
    expect(toneOf(null)).toBeUndefined();
  });

  it('sends dates as start<>end', () => {
    expect(dateRangeFilter('2025-01-01', '2025-03-31')).toBe('2025-01-01<>2025-03-31');
    expect(dateRangeFilter('2025-01-01', '')).toBe('2025-01-01<>');
    expect(dateRangeFilter('', '')).toBe('');
    expect(splitDateRange('2025-01-01<>2025-03-31')).toEqual(['2025-01-01', '2025-03-31']);
  });
});

describe('rows that others moved out of the list', () => {
  it('keeps the focus on its row, or the one that took its place, and unselects the rows that left', () => {
    let s = sel.initialSelection;
    const view = rows(10);
    s = sel.toggleAt(s, view, 2);
    s = sel.toggleAt(s, view, 5);
    s = sel.focusAt(s, view, 6);
    // Rows 1 and 5 (ids 101, 105) left: the focused row (106) is now the fifth.
    const after = sel.withoutRows(s, 8, [1, 5], new Set([101, 105]));
    expect([after.focus, ids(after)]).toEqual([4, [102]]);
    // The focused row itself left: the next one takes the focus; at the end, the last one.
    expect(sel.withoutRows(s, 9, [6], new Set([106])).focus).toBe(6);
    expect(sel.withoutRows(sel.focusAt(s, view, 9), 9, [9], new Set([109])).focus).toBe(8);
  });
});
