/**
 * The exports screen's commands: re-injecting or downloading the focused export, the filters,
 * and the custom big export with its progress (followed even after the screen is left).
 */
import { ApiError } from '../../api/client';
import { fetchBigExportJob, generateBigExport, reinjectExport, type BigExportJob } from '../../api/exports/requests';
import type { CommandContext } from '../../commands/context';
import { defineCommand } from '../../commands/registry';
import { exportsView, type ExportsCommandContext } from './store';

declare module '../../commands/context' {
  interface CommandContextExtensions {
    exports: ExportsCommandContext;
  }
}

const section = 'exports';
const scope = 'exports';
const onView = (ctx: CommandContext) => ctx.exports !== undefined;
const focused = (ctx: CommandContext) => ctx.exports?.focused;

defineCommand({
  id: 'exports.reinject',
  title: 'exports.reinject',
  section,
  scope,
  keys: ['r'],
  requires: 'admin',
  menus: [{ id: 'exports.actions', group: 'leads', order: 1 }],
  // A big export changed no lead's status: it has nothing to give back.
  when: (ctx) => focused(ctx) !== undefined && !focused(ctx)!.big_export,
  confirm: { message: 'exports.reinject.confirm', ok: 'exports.reinject.ok' },
  run: async (ctx) => {
    try {
      const res = await reinjectExport(focused(ctx)!.id);
      ctx.toast.success(ctx.t('exports.toast.reinjected', { count: res.data.count }));
    } catch (error) {
      // A conflict says why (nothing left to re-inject); anything else is the spec's generic failure.
      throw new Error(error instanceof ApiError && error.status === 409 ? error.message : ctx.t('exports.error.reinject'));
    }
    await ctx.exports!.refresh();
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
  when: (ctx) => focused(ctx) !== undefined,
  run: (ctx) => download(focused(ctx)!.url, focused(ctx)!.filename),
});

defineCommand({
  id: 'exports.clearFilters',
  title: 'exports.clearFilters',
  section,
  scope,
  requires: 'admin',
  when: (ctx) => {
    const f = exportsView.filters;
    return onView(ctx) && (f.landings.length > 0 || Boolean(f.start || f.end || f.forCustomer) || ctx.exports!.userId !== 0);
  },
  run: (ctx) => {
    exportsView.filters = { landings: [], start: '', end: '', forCustomer: '' };
    if (ctx.exports!.userId !== 0) ctx.navigate('/exports/0');
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

const focusBigForm = () => requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-big-export] [data-field=big-landings] button')?.focus());

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

const jobRunning = () => exportsView.job !== null && (exportsView.job.state === 'queued' || exportsView.job.state === 'running');
const POLL_MS = 500;

/** Follows the job until it ends, then says so wherever the user is (the toasts are the app's). */
async function follow(ctx: CommandContext, job: BigExportJob) {
  exportsView.job = job;
  while (exportsView.job?.id === job.id && jobRunning()) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    try {
      exportsView.job = (await fetchBigExportJob(job.id)).data;
    } catch {
      // A lost answer is asked again at the next tick; the job itself runs on the server.
    }
  }
  const end = exportsView.job;
  if (end?.id !== job.id) return;
  if (end.state === 'done') {
    ctx.toast.success(ctx.t('exports.toast.bigReady', { count: end.export?.count ?? 0 }));
    await ctx.exports?.refresh();
  } else {
    exportsView.refusal = end.message ?? ctx.t('exports.error.generate');
    ctx.toast.error(ctx.t('exports.error.generate'));
  }
}

defineCommand({
  id: 'exports.generate',
  title: 'exports.generate',
  section,
  scope,
  keys: ['b'],
  requires: 'admin',
  when: (ctx) => onView(ctx) && !jobRunning(),
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
      const res = await generateBigExport({ landings: big.landings, status: big.statuses, start: big.start, end: big.end });
      ctx.toast.info(ctx.t('exports.toast.bigStarted'));
      void follow(ctx, res.data);
    } catch (error) {
      // Refused (another export of this user running, bad dates…): said where the form is, and in a toast.
      exportsView.refusal = error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.message : ctx.t('exports.error.generate');
      throw new Error(exportsView.refusal);
    }
  },
});
