/**
 * The lead view's commands: moving and selecting in the grid, the status actions with their
 * undo stack, extraction, conversion, deletion, and the tabs. The view's buttons, the palette
 * and the hotkeys all go through these (the view provides `ctx.leads` while mounted).
 */
import { ApiError } from '../../api/client';
import { extractableStatus, type ImportRowError, type TargetStatus } from '../../api/leads/contract';
import {
  changeStatus,
  convertLeads,
  deleteLeads,
  exportLeads,
  fetchAllMatchingIds,
  importLeads,
  leadFilters,
  leadsKey,
  undoAction,
} from '../../api/leads/hooks';
import { queryClient } from '../../app/queryClient';
import type { GridAction } from '../../grid/keys';
import { importState } from './import/importStore';
import { mappedRows } from './import/mapping';
import { leadTabs, leadView, type LeadsCommandContext } from './store';
import type { CommandContext } from '../../commands/context';
import { defineCommand } from '../../commands/registry';

declare module '../../commands/context' {
  interface CommandContextExtensions {
    leads: LeadsCommandContext;
  }
}

const section = 'leads';
const onView = (ctx: CommandContext) => ctx.view === 'leads' && ctx.leads !== undefined;
const onGrid = (ctx: CommandContext) => onView(ctx) && ctx.leads!.status !== null;

/** Space presses a focused button or checkbox; it selects only when nothing interactive has the focus. */
function focusIsFree() {
  const el = document.activeElement;
  if (!el || el === document.body || el.getAttribute('role') === 'grid' || el.id === 'main') return true;
  return !el.matches('button, a[href], input, select, textarea, [role=button], [role=tab], [role=checkbox], [role=link], [role=menuitem]');
}

function gridCommand(id: string, keys: string[], action: GridAction, guard?: () => boolean) {
  defineCommand({
    id,
    title: id,
    section,
    keys,
    requires: 'staff',
    when: (ctx) => onGrid(ctx) && (!guard || guard()),
    run: (ctx) => ctx.leads!.grid()?.act(action),
  });
}

gridCommand('leads.next', ['j', 'arrowdown'], { type: 'move', delta: 1, extend: false });
gridCommand('leads.prev', ['k', 'arrowup'], { type: 'move', delta: -1, extend: false });
gridCommand('leads.extendNext', ['shift+j', 'shift+arrowdown'], { type: 'move', delta: 1, extend: true });
gridCommand('leads.extendPrev', ['shift+k', 'shift+arrowup'], { type: 'move', delta: -1, extend: true });
gridCommand('leads.first', ['home'], { type: 'edge', to: 'first', extend: false }, focusIsFree);
gridCommand('leads.last', ['end'], { type: 'edge', to: 'last', extend: false }, focusIsFree);
gridCommand('leads.toggle', ['x', 'space'], { type: 'toggle' }, focusIsFree);
gridCommand('leads.selectAll', ['mod+a'], { type: 'selectAll' });
gridCommand('leads.clear', ['escape'], { type: 'clear' });

defineCommand({
  id: 'leads.selectAllMatching',
  title: 'leads.selectAllMatching',
  section,
  requires: 'staff',
  when: onGrid,
  run: (ctx) => ctx.leads!.grid()?.selectAllMatching(),
});

defineCommand<{ count: number }>({
  id: 'leads.selectFirst',
  title: 'leads.selectFirst',
  section,
  requires: 'staff',
  palette: false,
  when: onGrid,
  run: async (ctx, args) => {
    await ctx.leads!.grid()?.selectFirst(Math.max(0, Math.min(500, Math.trunc(args?.count ?? 0))));
  },
});

defineCommand({
  id: 'leads.focusFilters',
  title: 'leads.focusFilters',
  section,
  keys: ['/'],
  requires: 'staff',
  when: onGrid,
  run: (ctx) => ctx.leads!.grid()?.focusFilters(),
});

defineCommand({
  id: 'leads.refresh',
  title: 'leads.refresh',
  section,
  keys: ['r'],
  requires: 'staff',
  when: onGrid,
  run: reload,
});

defineCommand({
  id: 'leads.focusExport',
  title: 'leads.focusExport',
  section,
  keys: ['f'],
  requires: 'staff',
  when: onGrid,
  run: () => document.querySelector<HTMLInputElement>('[data-leads-export] input')?.focus(),
});

/** The grid's selection as it is now (a keystroke may come before the view re-renders). */
const current = (l: LeadsCommandContext) => l.grid()?.selection() ?? l.selection;

const hasSelection = (l: LeadsCommandContext) => {
  const s = current(l);
  return Boolean(s && (s.allMatching || s.selected.size > 0));
};
const selectedIds = (l: LeadsCommandContext) => [...(current(l)?.selected ?? [])].map(Number);
const allMatching = (l: LeadsCommandContext) => current(l)?.allMatching === true;

/** The view's filters as the API takes them, for "all N matching". */
const matchingFilter = (l: LeadsCommandContext) => ({
  ids: [...l.landingIds],
  entry_status: l.status!,
  filters: leadFilters(current(l)!.filters, l.columns),
});

/** Ids of the selection: the selected rows, or every lead matching the filters. */
const idsOfSelection = (l: LeadsCommandContext) =>
  allMatching(l)
    ? fetchAllMatchingIds({ landingIds: l.landingIds, status: l.status!, sort: null, filters: matchingFilter(l).filters })
    : Promise.resolve(selectedIds(l));

/** The list reloads, and buyers, sources and statistics are fetched again. */
async function reload(ctx: CommandContext) {
  void queryClient.invalidateQueries({ queryKey: leadsKey });
  await ctx.leads!.refresh();
}

/** After an action the selection is spent and everything reloads. */
async function afterChange(ctx: CommandContext) {
  ctx.leads!.grid()?.act({ type: 'clear' });
  await reload(ctx);
}

function statusCommand(id: string, keys: string[], target: TargetStatus, done: string) {
  defineCommand({
    id,
    title: id,
    section,
    keys,
    requires: 'staff',
    when: onGrid,
    run: async (ctx) => {
      const l = ctx.leads!;
      if (!hasSelection(l)) return ctx.toast.warning(ctx.t('leads.validation.select'));
      const res = await changeStatus({
        entry_status: target,
        from_status: l.status!,
        ...(allMatching(l) ? { filter: matchingFilter(l) } : { leads: selectedIds(l) }),
      });
      const entry = { actionId: res.data.action_id, done, count: res.data.count };
      leadView.undo.push(entry);
      leadView.lastAction = entry;
      ctx.toast.success(ctx.t(done, { count: res.data.count }));
      await afterChange(ctx);
    },
  });
}

statusCommand('leads.archive', ['a'], 'archived', 'leads.toast.archived');
statusCommand('leads.bad', ['m'], 'trashed', 'leads.toast.trashed');
statusCommand('leads.markNew', ['n'], 'new', 'leads.toast.markedNew');

defineCommand({
  id: 'leads.undo',
  title: 'leads.undo',
  section,
  keys: ['z', 'mod+z'],
  requires: 'staff',
  when: (ctx) => onView(ctx) && leadView.undo.length > 0,
  run: async (ctx) => {
    const entry = leadView.undo.pop()!;
    if (leadView.lastAction?.actionId === entry.actionId) leadView.lastAction = null;
    await undoAction(entry.actionId);
    ctx.toast.info(ctx.t('leads.toast.undone'));
    await reload(ctx);
  },
});

defineCommand({
  id: 'leads.extract',
  title: 'leads.extract',
  section,
  keys: ['e'],
  requires: 'staff',
  when: onGrid,
  run: async (ctx) => {
    const l = ctx.leads!;
    if (!hasSelection(l)) return ctx.toast.warning(ctx.t('leads.validation.select'));
    const from = extractableStatus.safeParse(l.status);
    const link = await exportLeads(l.landingIds, {
      bookType: leadView.bookType,
      filename: leadView.filename.trim() || null,
      leads: await idsOfSelection(l),
      for_customer: leadView.buyer.trim() || null,
      ...(from.success ? { from_status: from.data } : {}),
    });
    leadView.link = link;
    leadView.copied = false;
    ctx.toast.success(ctx.t('leads.toast.extracted', { count: link.count }));
    await afterChange(ctx);
  },
});

/**
 * The clipboard API exists only on HTTPS and localhost; an intranet served over plain HTTP gets
 * the older copy of a selected text field.
 */
async function copyText(text: string): Promise<boolean> {
  if (window.isSecureContext && navigator.clipboard) return navigator.clipboard.writeText(text).then(() => true, () => false);
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  return copied;
}

defineCommand({
  id: 'leads.copyLink',
  title: 'leads.copyLink',
  section,
  requires: 'staff',
  when: (ctx) => onView(ctx) && leadView.link !== null,
  run: async (ctx) => {
    if (!(await copyText(new URL(leadView.link!.url, location.origin).href))) return ctx.toast.error(ctx.t('leads.error.copy'));
    leadView.copied = true;
    ctx.toast.success(ctx.t('leads.copied'));
  },
});

defineCommand({
  id: 'leads.convert',
  title: 'leads.convert',
  section,
  keys: ['c'],
  requires: 'staff',
  when: onGrid,
  run: (ctx) => {
    if (!hasSelection(ctx.leads!)) return ctx.toast.warning(ctx.t('leads.validation.convert'));
    leadView.convertOpen = true;
  },
});

defineCommand<{ landing: number }>({
  id: 'leads.convertTo',
  title: 'leads.convert.confirm',
  section,
  requires: 'staff',
  palette: false,
  when: onGrid,
  run: async (ctx, args) => {
    const l = ctx.leads!;
    if (!hasSelection(l)) return ctx.toast.warning(ctx.t('leads.validation.convert'));
    const res = await convertLeads({ landing: args.landing, leads: await idsOfSelection(l), from_status: l.status! });
    leadView.convertOpen = false;
    ctx.toast.success(ctx.t('leads.toast.converted', { count: res.data.count }));
    await afterChange(ctx);
  },
});

defineCommand({
  id: 'leads.delete',
  title: 'leads.delete',
  section,
  keys: ['shift+delete'],
  requires: 'staff',
  // Asking to confirm the deletion of nothing would make no sense: the command waits for a selection.
  when: (ctx) => onGrid(ctx) && hasSelection(ctx.leads!),
  confirm: 'leads.delete.confirm',
  run: async (ctx) => {
    const l = ctx.leads!;
    const res = await deleteLeads(allMatching(l) ? { filter: matchingFilter(l) } : { leads: selectedIds(l) });
    ctx.toast.success(ctx.t('leads.toast.deleted', { count: res.data.count }));
    await afterChange(ctx);
  },
});

// Tabs: 1…9 and 0 for the first ten (typed with Shift on AZERTY, matched on the character), i for Import.
leadTabs.forEach((tab, i) => {
  defineCommand({
    id: `leads.tab.${tab.key}`,
    title: `leads.tab.${tab.key}`,
    section,
    keys: [tab.key === 'import' ? 'i' : String((i + 1) % 10)],
    requires: 'staff',
    when: onView,
    run: (ctx) => ctx.leads!.setTab(tab.key),
  });
});

defineCommand<{ landingId: number; source: string; headers: string[]; rows: string[][]; mapping: Record<string, string> }>({
  id: 'leads.import',
  title: 'leads.import.run',
  section,
  requires: 'staff',
  palette: false,
  when: (ctx) => onView(ctx) && ctx.leads!.landingIds.length === 1,
  run: async (ctx, args) => {
    importState.phase = 'sending';
    importState.rowErrors = [];
    try {
      const res = await importLeads(args.landingId, {
        data: mappedRows(args.mapping, args.headers, args.rows),
        columns: args.mapping,
        form_import_from: args.source,
      });
      importState.result = res.data;
      importState.phase = 'done';
      void queryClient.invalidateQueries({ queryKey: leadsKey });
      ctx.toast.success(ctx.t('leads.toast.imported', { count: res.data.inserted }));
    } catch (error) {
      importState.phase = 'ready';
      if (error instanceof ApiError && Array.isArray(error.body?.rows)) importState.rowErrors = error.body.rows as ImportRowError[];
      throw new Error(ctx.t('leads.error.import'));
    }
  },
});
