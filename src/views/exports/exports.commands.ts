/**
 * The exports screen's commands: re-injecting or downloading the focused export, the filters,
 * and the custom big export with its progress (followed even after the screen is left).
 */
import { ApiError } from '../../api/client';
import type { BigExportJob } from '../../api/exports/contract';
import { generateBigExport, reinjectExport } from '../../api/exports/requests';
import { followBigExport, isRunning } from './bigExportJob';
import type { CommandContext, ContextWith } from '../../commands/context';
import type { ExportItem } from '../../api/exports/contract';
import { defineCommand } from '../../commands/registry';
import { focusWhenShown } from '../../ui/focusWhenShown';
import { exportsView, type ExportsCommandContext } from './store';
import { hrefOf } from '../../commands/screens';

declare module '../../commands/registry' {
  interface MenuRegistry {
    'exports.actions': true;
  }
}

declare module '../../commands/context' {
  interface CommandContextExtensions {
    exports: ExportsCommandContext;
  }
}

const section = 'exports';
const scope = 'exports';
type OnView = ContextWith<'exports'>;
type OnExport = OnView & { exports: { focused: ExportItem } };
const onView = (ctx: CommandContext): ctx is OnView => ctx.exports !== undefined;
const onExport = (ctx: CommandContext): ctx is OnExport => ctx.exports?.focused !== undefined;

defineCommand({
  id: 'exports.reinject',
  title: 'exports.reinject',
  section,
  scope,
  keys: ['r'],
  requires: 'admin',
  menus: [{ id: 'exports.actions', group: 'leads', order: 1 }],
  // A big export changed no lead's status, and leads sold again since are no longer this export's.
  when: (ctx): ctx is OnExport => onExport(ctx) && !ctx.exports.focused.big_export && ctx.exports.focused.reinjectable,
  confirm: { message: 'exports.reinject.confirm', ok: 'exports.reinject.ok' },
  run: async (ctx) => {
    try {
      const res = await reinjectExport(ctx.exports.focused.id);
      ctx.toast.success(ctx.t('exports.toast.reinjected', { count: res.data.count }));
    } catch (error) {
      // A conflict says why (nothing left to re-inject); anything else is the spec's generic failure.
      throw new Error(error instanceof ApiError && error.status === 409 ? error.message : ctx.t('exports.error.reinject'));
    }
    await ctx.exports.refresh();
  },
});

/** Opens a file through a link, as a click on the grid's cell does. */
function download(url: string, filename: string) {
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
}

defineCommand({
  id: 'exports.download',
  title: 'exports.download',
  section,
  scope,
  keys: ['d'],
  requires: 'admin',
  menus: [{ id: 'exports.actions', group: 'file', order: 2 }],
  when: onExport,
  run: (ctx) => download(ctx.exports.focused.url, ctx.exports.focused.filename),
});

defineCommand({
  id: 'exports.clearFilters',
  title: 'exports.clearFilters',
  section,
  scope,
  requires: 'admin',
  when: (ctx): ctx is OnView => {
    const f = exportsView.filters;
    return onView(ctx) && (f.landings.length > 0 || Boolean(f.start || f.end || f.forCustomer) || ctx.exports.userId !== 0);
  },
  run: (ctx) => {
    exportsView.filters = { landings: [], start: '', end: '', forCustomer: '' };
    if (ctx.exports.userId !== 0) ctx.navigate(hrefOf('exports', { userId: 0 }));
  },
});

defineCommand({
  id: 'exports.focusFilters',
  title: 'exports.focusFilters',
  section,
  scope,
  keys: ['f'],
  requires: 'admin',
  when: onView,
  run: () => document.querySelector<HTMLElement>('[data-exports-filters] [data-field=landings] button')?.focus(),
});

const focusBigForm = () => focusWhenShown('[data-big-export] [data-field=big-landings] button');

defineCommand({
  id: 'exports.toggleBig',
  title: 'exports.big.toggle',
  section,
  scope,
  keys: ['p'],
  requires: 'admin',
  when: onView,
  run: () => {
    exportsView.big.open = !exportsView.big.open;
    if (exportsView.big.open) focusBigForm();
  },
});

defineCommand({
  id: 'exports.generate',
  title: 'exports.generate',
  section,
  scope,
  keys: ['b'],
  requires: 'admin',
  when: (ctx) => onView(ctx) && !isRunning(exportsView.job),
  run: async (ctx) => {
    const big = exportsView.big;
    // From the palette or the key with the form incomplete: the form, ready to fill.
    if (!big.open || big.landings.length === 0 || big.statuses.length === 0 || !big.start || !big.end) {
      if (big.open) ctx.toast.warning(ctx.t('exports.big.incomplete'));
      big.open = true;
      focusBigForm();
      return;
    }
    exportsView.refusal = null;
    try {
      const res = await generateBigExport({
        landings: big.landings.join(','),
        status: big.statuses.join(','),
        start: big.start,
        end: big.end,
        format: big.format,
      });
      ctx.toast.info(ctx.t('exports.toast.bigStarted'));
      void followBigExport(ctx, res.data);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500 || error.status === 0) throw new Error(ctx.t('exports.error.generate'));
      // Refused (another export of this user running, bad dates…): said beside the form, and in a toast.
      exportsView.refusal = error.message;
      const job = error.body?.job as BigExportJob | undefined;
      if (error.status === 409 && job) void followBigExport(ctx, job);
      throw new Error(error.message);
    }
  },
});
