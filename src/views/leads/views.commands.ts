/**
 * Saved views (issue 28): the lead list as it is now saved under a name (mine, or shared with
 * everyone), opened from the sidebar or the palette ('Vue : PAC 30 > 100 m²'), renamed, moved or
 * deleted while it is on screen. A shared view is changed only by its author or an admin: the
 * server says so per view (`editable`).
 */
import { ApiError } from '../../api/client';
import { leadFilters } from '../../api/leads/requests';
import type { SavedView } from '../../api/views/contract';
import { viewsQuery } from '../../api/views/queries';
import { createView, deleteView, updateView } from '../../api/views/requests';
import { queryClient } from '../../api/queryClient';
import type { CommandContext, ContextWith } from '../../commands/context';
import { defineCommand } from '../../commands/registry';
import { definePaletteSource } from '../../commands/palette/sources';
import { viewHref } from '../../api/views/url';
import { viewDialog } from './savedViews';

definePaletteSource({
  id: 'views',
  order: 22,
  requires: 'staff',
  query: viewsQuery,
  entries: (views, t) =>
    views.map((v) => ({
      key: String(v.id),
      label: t('views.palette', { name: v.name }),
      hint: v.count === null ? undefined : t('views.count', { count: v.count }),
      command: 'views.open',
      args: { id: v.id },
    })),
});

declare module '../../commands/registry' {
  interface MenuRegistry {
    'views.current': true;
  }
}

const section = 'leads';
const scope = 'leads';
type OnView = ContextWith<'leads'>;
const onView = (ctx: CommandContext): ctx is OnView => ctx.leads !== undefined;

/** The saved view the lead view shows now, when this user may change it. */
const current = (ctx: CommandContext): SavedView | undefined => (ctx.leads?.view?.editable ? ctx.leads.view : undefined);
const onEditableView = (ctx: CommandContext): ctx is OnView => current(ctx) !== undefined;

defineCommand<{ id: number }>({
  id: 'views.open',
  title: 'views.open',
  section,
  requires: 'staff',
  palette: false,
  run: async (ctx, args) => {
    const view = (await queryClient.fetchQuery(viewsQuery)).find((v) => v.id === args.id);
    if (!view) return ctx.toast.warning(ctx.t('views.gone'));
    ctx.navigate(viewHref(view));
  },
});

defineCommand({
  id: 'views.save',
  title: 'views.save',
  section,
  scope,
  keys: ['v'],
  menus: [{ id: 'views.current', order: 1 }],
  requires: 'staff',
  when: onView,
  run: () => {
    Object.assign(viewDialog, { open: true, id: null, name: '', shared: false, error: '' });
  },
});

defineCommand({
  id: 'views.rename',
  title: 'views.rename',
  section,
  scope,
  menus: [{ id: 'views.current', order: 2, when: onEditableView }],
  requires: 'staff',
  when: onEditableView,
  run: (ctx) => {
    const view = current(ctx)!;
    Object.assign(viewDialog, { open: true, id: view.id, name: view.name, shared: view.shared, error: '' });
  },
});

/** Saves the dialog: the list as a new view, or the view's new name and sharing. */
defineCommand({
  id: 'views.submit',
  title: 'views.dialog.save',
  section,
  scope,
  requires: 'staff',
  palette: false,
  when: (ctx): ctx is OnView => onView(ctx) && viewDialog.open && !viewDialog.busy,
  run: async (ctx) => {
    const { list, landingIds, columns } = ctx.leads;
    const name = viewDialog.name.trim();
    if (!name) {
      viewDialog.error = ctx.t('views.dialog.nameRequired');
      return;
    }
    viewDialog.busy = true;
    try {
      if (viewDialog.id === null) {
        await createView({
          name,
          shared: viewDialog.shared,
          landing_ids: [...landingIds],
          tab: list.tab,
          filters: leadFilters(list.filters, columns),
          sort: list.sort,
        });
        ctx.toast.success(ctx.t('views.toast.saved', { name }));
      } else {
        await updateView(viewDialog.id, { name, shared: viewDialog.shared });
        ctx.toast.success(ctx.t('views.toast.renamed', { name }));
      }
      viewDialog.open = false;
    } catch (error) {
      // A name taken or refused is the field's to say; anything else is the command's failure.
      if (error instanceof ApiError && (error.status === 409 || error.status === 422)) {
        viewDialog.error = String((error.body?.errors as Record<string, string> | undefined)?.name ?? error.message);
        return;
      }
      throw error;
    } finally {
      viewDialog.busy = false;
    }
  },
});

defineCommand({
  id: 'views.delete',
  title: 'views.delete',
  section,
  scope,
  menus: [{ id: 'views.current', order: 3, tone: 'danger', when: onEditableView }],
  requires: 'staff',
  when: onEditableView,
  confirm: { message: 'views.delete.confirm', title: 'views.delete', ok: 'views.delete.ok', values: (ctx) => ({ name: current(ctx)?.name ?? '' }) },
  run: async (ctx) => {
    const view = current(ctx)!;
    await deleteView(view.id);
    ctx.toast.success(ctx.t('views.toast.deleted', { name: view.name }));
  },
});

for (const move of ['up', 'down'] as const) {
  defineCommand({
    id: `views.move.${move}`,
    title: `views.move.${move}`,
    section,
    scope,
    requires: 'staff',
    when: onEditableView,
    run: async (ctx) => {
      await updateView(current(ctx)!.id, { move });
    },
  });
}
