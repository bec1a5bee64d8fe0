/**
 * The lead view's commands: moving and selecting in the grid, the status actions with their
 * undo stack, extraction, conversion, deletion, and the tabs. The view's buttons, the palette
 * and the hotkeys all go through these (the view provides `ctx.leads` while mounted).
 */
import { ApiError } from '../../api/client';
import { extractableStatus, type EntryStatus, type ImportRowError, type LeadRow, type TargetStatus } from '../../api/leads/contract';
import { leadsKey } from '../../api/leads/queries';
import { parseEuros } from '../../shared/money';
import { changeStatus, convertLeads, deleteLeads, exportLeads, fetchAllMatchingIds, importLeads, leadFilters, undoAction } from '../../api/leads/requests';
import { queryClient } from '../../api/queryClient';
import { listKey, moveCeiling, shownCeiling } from './ceiling';
import { importState } from './import/importStore';
import { mappedRows } from './import/mapping';
import { leadPath, leadTabs, leadView, type LeadsCommandContext } from './store';
import type { CommandContext, ContextWith } from '../../commands/context';
import { defineCommand } from '../../commands/registry';
import { definePaletteSource } from '../../commands/palette/sources';
import type { Landing } from '../../api/landings/contract';
import { allLandingsQuery, facebookLandingsQuery, landingsQuery } from '../../api/landings/queries';

definePaletteSource({ id: 'landings', order: 20, requires: 'staff', query: landingsQuery, entries: landingJumps });
definePaletteSource({ id: 'facebook', order: 21, requires: 'staff', query: facebookLandingsQuery, entries: landingJumps });

function landingJumps(landings: readonly Landing[]) {
  return landings.map((l) => ({ key: String(l.id), label: l.name, hint: `#${l.id}`, keywords: l.category, command: 'nav.leads', args: { id: l.id } }));
}

declare module '../../commands/registry' {
  interface MenuRegistry {
    'leads.actions': true;
    'leads.list': true;
    'leads.row': true;
    'leads.undo': true;
    'leads.arrived': true;
  }
}

declare module '../../commands/context' {
  interface CommandContextExtensions {
    leads: LeadsCommandContext;
  }
}

const section = 'leads';
const scope = 'leads';
type OnView = ContextWith<'leads'>;
type OnGrid = OnView & { leads: { status: EntryStatus } };
const onView = (ctx: CommandContext): ctx is OnView => ctx.leads !== undefined;
const onGrid = (ctx: CommandContext): ctx is OnGrid => onView(ctx) && ctx.leads.status !== null;

defineCommand<{ count: number }, OnGrid>({
  id: 'leads.selectFirst',
  title: 'leads.selectFirst',
  section,
  scope,
  requires: 'staff',
  choices: (ctx) => [50, 100, 150, 500].map((count) => ({ label: ctx.t('leads.selectFirst.choice', { count }), args: { count } })),
  when: onGrid,
  run: async (ctx, args) => {
    await ctx.grid?.selectFirst(Math.max(0, Math.min(500, Math.trunc(args?.count ?? 0))));
  },
});

defineCommand({
  id: 'leads.refresh',
  title: 'leads.refresh',
  section,
  scope,
  keys: ['r'],
  menus: [{ id: 'leads.list', order: 1 }],
  requires: 'staff',
  when: onGrid,
  run: reload,
});

// As mail clients do: leads that arrive wait behind a bar, so the rows never move under the cursor; '.' shows them.
defineCommand({
  id: 'leads.showNew',
  title: 'leads.showNew',
  section,
  scope,
  keys: ['.'],
  menus: [{ id: 'leads.arrived', order: 1 }],
  requires: 'staff',
  when: (ctx): ctx is OnGrid => onGrid(ctx) && leadView.arrived > 0,
  run: async (ctx) => {
    // The bar and its button go away: the keys go back to the list, on the row they were on.
    ctx.grid?.focus();
    await reload(ctx);
  },
});

defineCommand({
  id: 'leads.focusExport',
  title: 'leads.focusExport',
  section,
  scope,
  keys: ['f'],
  requires: 'staff',
  when: onGrid,
  run: () => document.querySelector<HTMLInputElement>('[data-leads-export] input')?.focus(),
});

/**
 * The grid's selection as it is now, from the mounted grid itself: a keystroke may come before
 * the view re-renders (x then c typed fast).
 */
const current = (ctx: OnView) => ctx.grid?.selection() ?? ctx.leads.selection;

const hasSelection = (ctx: OnView) => {
  const s = current(ctx);
  return Boolean(s && (s.allMatching || s.selected.size > 0));
};
const selectedIds = (ctx: OnView) => [...(current(ctx)?.selected ?? [])].map(Number);
const allMatching = (ctx: OnView) => current(ctx)?.allMatching === true;

/** The list as the API takes it, for "all N matching": its filters, and its ceiling (the leads on screen, not those arrived since). */
const matchingFilter = (ctx: OnGrid) => ({
  ids: [...ctx.leads.landingIds],
  entry_status: ctx.leads.status,
  filters: leadFilters(current(ctx)!.filters, ctx.leads.columns),
  ceiling: shownCeiling(listKey(ctx.leads.landingIds, ctx.leads.status)),
});

/** Ids of the selection: the selected rows, or every lead of the list matching the filters. */
async function idsOfSelection(ctx: OnGrid): Promise<number[]> {
  if (!allMatching(ctx)) return selectedIds(ctx);
  const { filters, ceiling } = matchingFilter(ctx);
  return fetchAllMatchingIds({ landingIds: ctx.leads.landingIds, status: ctx.leads.status, sort: null, filters, ceiling });
}

/** The list reloads (with the leads that arrived meanwhile), and buyers, sources and statistics are fetched again. */
async function reload(ctx: CommandContext) {
  leadView.arrived = 0;
  moveCeiling();
  void queryClient.invalidateQueries({ queryKey: leadsKey });
  await ctx.grid?.refresh();
}

/** After an action the selection is spent and everything reloads. */
async function afterChange(ctx: CommandContext) {
  ctx.grid?.act({ type: 'clear' });
  await reload(ctx);
}

function statusCommand(id: string, keys: string[], target: TargetStatus, done: string, order: number) {
  defineCommand({
    id,
    title: id,
    section,
    scope,
    keys,
    menus: [{ id: 'leads.actions', group: 'status', order }],
    requires: 'staff',
    when: onGrid,
    run: async (ctx) => {
      const l = ctx.leads;
      if (!hasSelection(ctx)) return ctx.toast.warning(ctx.t('leads.validation.select'));
      const res = await changeStatus({
        entry_status: target,
        from_status: l.status!,
        ...(allMatching(ctx) ? { filter: matchingFilter(ctx) } : { leads: selectedIds(ctx) }),
      });
      const entry = { actionId: res.data.action_id, done, count: res.data.count };
      leadView.undo.push(entry);
      // The undo bar says what was done, with its Annuler button: no toast repeats it.
      leadView.lastAction = entry;
      await afterChange(ctx);
    },
  });
}

statusCommand('leads.archive', ['a'], 'archived', 'leads.toast.archived', 2);
statusCommand('leads.bad', ['m'], 'trashed', 'leads.toast.trashed', 3);
statusCommand('leads.markNew', ['n'], 'new', 'leads.toast.markedNew', 4);

defineCommand({
  id: 'leads.undo',
  title: 'leads.undo',
  section,
  scope,
  keys: ['z', 'mod+z'],
  menus: [{ id: 'leads.undo', order: 1 }],
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
  scope,
  keys: ['e'],
  menus: [{ id: 'leads.actions', group: 'status', order: 1, tone: 'primary' }],
  requires: 'staff',
  when: onGrid,
  run: async (ctx) => {
    const l = ctx.leads;
    if (!hasSelection(ctx)) return ctx.toast.warning(ctx.t('leads.validation.select'));
    const price = parseEuros(leadView.price);
    if (Number.isNaN(price)) return ctx.toast.warning(ctx.t('leads.validation.price'));
    const from = extractableStatus.safeParse(l.status);
    const link = await exportLeads(l.landingIds, {
      bookType: leadView.bookType,
      filename: leadView.filename.trim() || null,
      leads: await idsOfSelection(ctx),
      for_customer: leadView.buyer.trim() || null,
      ...(price !== null ? { price_cents: price } : {}),
      ...(from.success ? { from_status: from.data } : {}),
    });
    leadView.link = link;
    leadView.copied = false;
    ctx.toast.success(
      link.skipped
        ? ctx.t('leads.toast.extractedSkipped', { count: link.count, skipped: link.skipped })
        : ctx.t('leads.toast.extracted', { count: link.count }),
    );
    await afterChange(ctx);
  },
});

/**
 * The clipboard API exists only on HTTPS and localhost; an intranet served over plain HTTP gets
 * the older copy of a selected text field.
 */
async function copyText(text: string): Promise<boolean> {
  if (window.isSecureContext && navigator.clipboard)
    return navigator.clipboard.writeText(text).then(
      () => true,
      () => false,
    );
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
  scope,
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
  scope,
  keys: ['c'],
  menus: [{ id: 'leads.actions', group: 'move', order: 5 }],
  requires: 'staff',
  when: onGrid,
  run: (ctx) => {
    if (!hasSelection(ctx)) return ctx.toast.warning(ctx.t('leads.validation.convert'));
    leadView.convertOpen = true;
  },
});

defineCommand<{ landing: number }, OnGrid>({
  id: 'leads.convertTo',
  title: 'leads.convert.confirm',
  section,
  scope,
  requires: 'staff',
  // The landings a selection may go to: those of the sidebar, other than the view's own.
  choices: (ctx) =>
    (queryClient.getQueryData(allLandingsQuery.queryKey) ?? [])
      .filter((l) => !ctx.leads?.landingIds.includes(l.id))
      .map((l) => ({ label: ctx.t('leads.convert.choice', { name: l.name }), args: { landing: l.id } })),
  when: onGrid,
  run: async (ctx, args) => {
    const l = ctx.leads;
    if (!hasSelection(ctx)) return ctx.toast.warning(ctx.t('leads.validation.convert'));
    const res = await convertLeads({ landing: args.landing, leads: await idsOfSelection(ctx), from_status: l.status! });
    leadView.convertOpen = false;
    ctx.toast.success(ctx.t('leads.toast.converted', { count: res.data.count }));
    await afterChange(ctx);
  },
});

defineCommand({
  id: 'leads.delete',
  title: 'leads.delete',
  section,
  scope,
  keys: ['shift+delete'],
  menus: [{ id: 'leads.actions', group: 'move', order: 6, tone: 'danger' }],
  requires: 'staff',
  // Asking to confirm the deletion of nothing would make no sense: the command waits for a selection.
  when: (ctx): ctx is OnGrid => onGrid(ctx) && hasSelection(ctx),
  // One key can act on thousands of matching leads: the question names how many.
  confirm: {
    message: 'leads.delete.confirm',
    title: 'leads.delete',
    ok: 'leads.delete.ok',
    values: (ctx) => {
      const s = current(ctx)!;
      return s.allMatching
        ? { count: s.total, all: 'yes', approx: s.totalExact === false ? 'yes' : 'no' }
        : { count: s.selected.size, all: 'no', approx: 'no' };
    },
  },
  run: async (ctx) => {
    const res = await deleteLeads(allMatching(ctx) ? { filter: matchingFilter(ctx) } : { leads: selectedIds(ctx) });
    ctx.toast.success(ctx.t('leads.toast.deleted', { count: res.data.count }));
    await afterChange(ctx);
  },
});

defineCommand<{ path?: string } | undefined, OnGrid>({
  id: 'leads.openOriginal',
  title: 'leads.openOriginal',
  section,
  scope,
  keys: ['o'],
  requires: 'staff',
  when: (ctx): ctx is OnGrid => onGrid(ctx) && ctx.leads.status === 'duplicate',
  run: (ctx, args) => {
    const row = ctx.grid?.focusedRow() as LeadRow | undefined;
    const path = args?.path ?? (row?.duplicate_of ? leadPath(row.landing, row.duplicate_of) : null);
    if (!path) return ctx.toast.info(ctx.t('leads.duplicateOf.none'));
    ctx.navigate(path);
  },
});

// The question lead-distribution users ask most: why this lead went to that customer, or to none.
defineCommand({
  id: 'leads.explainRouting',
  title: 'leads.explainRouting',
  section,
  scope,
  keys: ['p'],
  menus: [
    { id: 'leads.row', group: 'lead', order: 1 },
    { id: 'leads.actions', group: 'lead', order: 7 },
  ],
  requires: 'admin',
  when: (ctx): ctx is OnGrid & ContextWith<'grid'> => onGrid(ctx) && ctx.grid?.focusedRow() !== undefined,
  run: (ctx) => {
    const row = ctx.grid.focusedRow() as LeadRow;
    leadView.routing = { landing: row.landing, lead: row.id };
  },
});

// Tabs: 1…9 and 0 for the first ten (typed with Shift on AZERTY, matched on the character), i for Import.
leadTabs.forEach((tab, i) => {
  defineCommand({
    id: `leads.tab.${tab.key}`,
    title: `leads.tab.${tab.key}`,
    section,
    scope,
    keys: [tab.key === 'import' ? 'i' : String((i + 1) % 10)],
    requires: 'staff',
    when: onView,
    run: (ctx) => ctx.leads.setTab(tab.key),
  });
});

defineCommand<{ landingId: number; source: string; headers: string[]; rows: string[][]; mapping: Record<string, string> }, OnView>({
  id: 'leads.import',
  title: 'leads.import.run',
  section,
  scope,
  requires: 'staff',
  palette: false,
  when: (ctx): ctx is OnView => onView(ctx) && ctx.leads.landingIds.length === 1,
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
