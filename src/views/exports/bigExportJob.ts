// The custom export under way: followed until it ends, even after the screen is left.
import type { BigExportJob } from '../../api/exports/contract';
import { fetchBigExportJob, fetchBigExportJobs } from '../../api/exports/requests';
import type { CommandContext } from '../../commands/context';
import { exportsView } from './store';

export const isRunning = (job: BigExportJob | null) => job !== null && (job.state === 'queued' || job.state === 'running');
const POLL_MS = 500;
let followed: number | null = null;

/** Follows the job until it ends, then says so wherever the user is (the toasts are the app's). */
export async function followBigExport(ctx: CommandContext, job: BigExportJob) {
  exportsView.job = job;
  if (followed === job.id) return;
  followed = job.id;
  try {
    while (exportsView.job?.id === job.id && isRunning(exportsView.job)) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      try {
        exportsView.job = await fetchBigExportJob(job.id);
      } catch {
        // A lost answer is asked again at the next tick; the job itself runs on the server.
      }
    }
  } finally {
    followed = null;
  }
  const end = exportsView.job;
  if (end?.id !== job.id) return;
  if (end.state === 'done') {
    ctx.toast.success(ctx.t('exports.toast.bigReady', { count: end.export?.count ?? 0 }));
    await ctx.exports?.refresh();
  } else {
    exportsView.refusal = end.error ?? ctx.t('exports.error.generate');
    ctx.toast.error(ctx.t('exports.error.generate'));
  }
}

/** On arrival: a job of this user still running (started before a reload, or in another tab) shows its progress. */
export async function resumeBigExport(ctx: CommandContext) {
  const running = (await fetchBigExportJobs()).find(isRunning);
  if (running) void followBigExport(ctx, running);
}
