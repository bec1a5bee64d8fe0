/**
 * The keyboard model of every grid, as commands: moving, extending, selecting, the filters. A
 * mounted grid provides itself as `ctx.grid` (Grid.tsx), so these apply to whichever list the
 * screen shows — the lead view's leads as the exports, rules or accounts tables.
 */
import type { CommandContext, ContextWith } from '../commands/context';
import { defineCommand } from '../commands/registry';
import type { GridAction, GridHandle } from './types';

declare module '../commands/context' {
  interface CommandContextExtensions {
    grid: GridHandle;
  }
}

const section = 'grid';
/** How many rows PageUp/PageDown jump. */
const PAGE_JUMP = 20;

type OnGrid = ContextWith<'grid'>;
const onGrid = (ctx: CommandContext): ctx is OnGrid => ctx.grid !== undefined;
/** Selecting applies to the lists that select (the leads), not to those only looked at or opened. */
const selects = (ctx: CommandContext): ctx is OnGrid => onGrid(ctx) && ctx.grid.selectable;

/** Space and Home/End belong to a focused button, field or link; they act on the grid only when nothing interactive has the focus. */
function focusIsFree() {
  const el = document.activeElement;
  if (!el || el === document.body || el.getAttribute('role') === 'grid' || el.id === 'main') return true;
  return !el.matches('button, a[href], input, select, textarea, [role=button], [role=tab], [role=checkbox], [role=link], [role=menuitem]');
}

function gridCommand(id: string, keys: string[], action: GridAction, guard?: (ctx: CommandContext) => boolean) {
  defineCommand({
    id: `grid.${id}`,
    title: `grid.${id}`,
    section,
    keys,
    requires: 'staff',
    when: (ctx): ctx is OnGrid => onGrid(ctx) && (!guard || guard(ctx)),
    run: (ctx) => ctx.grid.act(action),
  });
}

gridCommand('next', ['j', 'arrowdown'], { type: 'move', delta: 1, extend: false });
gridCommand('prev', ['k', 'arrowup'], { type: 'move', delta: -1, extend: false });
gridCommand('extendNext', ['shift+j', 'shift+arrowdown'], { type: 'move', delta: 1, extend: true }, selects);
gridCommand('extendPrev', ['shift+k', 'shift+arrowup'], { type: 'move', delta: -1, extend: true }, selects);
gridCommand('pageDown', ['pagedown'], { type: 'move', delta: PAGE_JUMP, extend: false }, focusIsFree);
gridCommand('pageUp', ['pageup'], { type: 'move', delta: -PAGE_JUMP, extend: false }, focusIsFree);
gridCommand('first', ['home'], { type: 'edge', to: 'first', extend: false }, focusIsFree);
gridCommand('last', ['end'], { type: 'edge', to: 'last', extend: false }, focusIsFree);
gridCommand('toggle', ['x', 'space'], { type: 'toggle' }, (ctx) => selects(ctx) && focusIsFree());
gridCommand('selectAll', ['mod+a'], { type: 'selectAll' }, selects);
gridCommand('clear', ['escape'], { type: 'clear' }, selects);

defineCommand({
  id: 'grid.selectAllMatching',
  title: 'grid.selectAllMatchingCommand',
  section,
  requires: 'staff',
  when: selects,
  run: (ctx) => ctx.grid.selectAllMatching(),
});

// Enter belongs to a focused button, tab or link; on the rows it opens the focused one.
defineCommand({
  id: 'grid.open',
  title: 'grid.open',
  section,
  keys: ['enter'],
  requires: 'staff',
  when: (ctx): ctx is OnGrid => onGrid(ctx) && ctx.grid.opens && focusIsFree(),
  run: (ctx) => ctx.grid.open(),
});

defineCommand({
  id: 'grid.focusFilters',
  title: 'grid.focusFilters',
  section,
  keys: ['/'],
  requires: 'staff',
  when: onGrid,
  run: (ctx) => ctx.grid.focusFilters(),
});
