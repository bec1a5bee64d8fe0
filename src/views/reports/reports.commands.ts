/**
 * The reports screen's commands: downloading a day's report (the dialog, then the file in a
 * format), and going back to the rules of the report's customer. The screen provides
 * `ctx.reports`; a row's button passes its report as `{ reportId }`.
 */
import { bookType, type BookType } from '../../api/leads/contract';
import { downloadReport } from '../../api/reports/requests';
import type { CommandContext, ContextWith } from '../../commands/context';
import { defineCommand } from '../../commands/registry';
import { reportDownload, type ReportsCommandContext } from './store';
import { hrefOf } from '../../commands/screens';

declare module '../../commands/registry' {
  interface MenuRegistry {
    'reports.actions': true;
  }
}

declare module '../../commands/context' {
  interface CommandContextExtensions {
    reports: ReportsCommandContext;
  }
}

const section = 'reports';
const scope = 'reports';
type ReportArgs = { reportId: number } | undefined;

type OnScreen = ContextWith<'reports'>;
const onScreen = (ctx: CommandContext): ctx is OnScreen => ctx.reports !== undefined;
/** The report a command acts on: its row's (a row's buttons pass it), or the focused one (toolbar, keys, palette). */
const target = (ctx: CommandContext, args: { reportId?: number } | undefined) =>
  args?.reportId !== undefined ? ctx.reports?.byId(args.reportId) : ctx.reports?.focused;
const onReport = (ctx: CommandContext, args: { reportId?: number } | undefined): ctx is OnScreen => onScreen(ctx) && target(ctx, args) !== undefined;

// d, Enter or a double click on a row, its Télécharger button, the toolbar: the dialog asks the format.
defineCommand<ReportArgs, OnScreen>({
  id: 'reports.download',
  title: 'reports.download',
  section,
  scope,
  keys: ['d'],
  menus: [{ id: 'reports.actions', group: 'file', order: 1, tone: 'primary', inline: true }],
  requires: 'admin',
  when: onReport,
  run: (ctx, args) => {
    const report = target(ctx, args);
    if (!report) return;
    reportDownload.report = report;
    reportDownload.format = 'pdf';
  },
});

defineCommand<{ reportId?: number; format: BookType }, OnScreen>({
  id: 'reports.downloadAs',
  title: 'reports.downloadAs',
  section,
  scope,
  requires: 'admin',
  choices: (ctx) => {
    const focused = ctx.reports?.focused;
    return focused
      ? bookType.options.map((format) => ({
          label: ctx.t('reports.downloadAs.choice', { date: focused.date, format: format.toUpperCase() }),
          args: { format },
        }))
      : [];
  },
  when: onReport,
  run: async (ctx, args) => {
    const report = target(ctx, args);
    if (!report) return;
    reportDownload.busy = true;
    try {
      const name = await downloadReport(report.id, args.format, report.date);
      reportDownload.report = null;
      ctx.toast.success(ctx.t('reports.toast.downloaded', { name }));
    } catch (error) {
      throw new Error(ctx.t('reports.error.download'), { cause: error });
    } finally {
      reportDownload.busy = false;
    }
  },
});

defineCommand({
  id: 'reports.openRules',
  title: 'reports.openRules',
  section,
  scope,
  menus: [{ id: 'reports.actions', group: 'nav', order: 5 }],
  requires: 'admin',
  when: (ctx): ctx is OnScreen & { reports: { rule: { customer_id: number } } } => onScreen(ctx) && ctx.reports.rule?.customer_id != null,
  run: (ctx) => ctx.navigate(hrefOf('rules', { customerId: ctx.reports.rule.customer_id })),
});
