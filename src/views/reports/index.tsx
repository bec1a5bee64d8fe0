import { useMemo } from 'react';
import { useParams } from 'react-router';
import { queryClient } from '../../api/queryClient';
import type { Report } from '../../api/reports/contract';
import { useReports } from '../../api/reports/hooks';
import { reportsQuery } from '../../api/reports/queries';
import { useProvideCommandContext } from '../../commands/context';
import { runCommand } from '../../commands/registry';
import { defaultFormatter } from '../../grid/Grid';
import { localLoader } from '../../grid/localRows';
import type { GridColumnSpec, Row } from '../../grid/types';
import { formatCents } from '../../shared/money';
import { useIntl, useT } from '../../i18n/provider';
import { ListScreen, useListScreen, type ListGrid } from '../../ui/ListScreen';
import { DeliveryLog } from './DeliveryLog';
import { DownloadDialog } from './DownloadDialog';
import { ReportSales } from './ReportSales';
import './reports.css';
import { reportTone, type ReportsCommandContext } from './store';

const columns: GridColumnSpec[] = [
  { key: 'date', label: '', kind: 'date', width: 130 },
  { key: 'count', label: '', kind: 'number', width: 110 },
  { key: 'returned', label: '', kind: 'number', width: 110 },
  { key: 'amount_cents', label: '', kind: 'number', width: 120 },
  { key: 'leads_number', label: '', kind: 'number', width: 110 },
  { key: 'zip', label: '', kind: 'text', width: 220 },
];

const rowButtons = { args: (row: Row) => ({ reportId: row.id }), width: 140 };
const rowTone = (row: Row) => reportTone(Number(row.count), Number(row.leads_number));
// Enter or a double click on a row: the day's report, in a format.
const onOpen = (row: Row) => void runCommand('reports.download', { reportId: row.id }, 'hotkey');

/** Reports (/customers/rules/rapports/:ruleId): a rule's days newest first (delivered, returned, amount), coloured by fill, the last export, a day's delivery log and sales. */
export default function ReportsScreen() {
  const t = useT();
  const intl = useIntl();
  const ruleId = Number(useParams().ruleId);
  const reports = useReports(ruleId);
  const rule = reports.data?.rule;
  const link = reports.data?.export ?? null;

  const format = useMemo(() => {
    const base = defaultFormatter(intl.locale);
    return (column: GridColumnSpec, value: unknown) =>
      column.key === 'zip'
        ? (value as string[] | undefined)?.length
          ? (value as string[]).join(', ')
          : t('rules.zip.everywhere')
        : column.key === 'amount_cents'
          ? formatCents(Number(value ?? 0), intl.locale)
          : base(column, value);
  }, [intl.locale, t]);
  const loader = useMemo(
    () =>
      localLoader(
        async () => (await queryClient.fetchQuery(reportsQuery(ruleId))).data as (Report & Row)[],
        columns,
        (c, row) => format(c, row[c.key]),
      ),
    [ruleId, format],
  );
  const list = useListScreen<Report>({ loader, version: reports.data });
  const grid: ListGrid = useMemo(() => ({ queryKey: `reports|${ruleId}`, columns, format, rowTone, onOpen, rowButtons }), [ruleId, format]);

  const { focused, byId, grid: gridHandle } = list;
  const ctx: ReportsCommandContext = useMemo(() => ({ ruleId, rule, focused, byId, grid: gridHandle }), [ruleId, rule, focused, byId, gridHandle]);
  useProvideCommandContext({ view: 'reports', reports: ctx });

  return (
    <ListScreen
      name="reports"
      title={rule?.name ? t('reports.titleOf', { name: rule.name }) : t('shell.screen.reports')}
      subtitle={
        rule?.customer_name ? <p className="muted reports-sub">{t('reports.subtitle', { customer: rule.customer_name, cap: rule.leads_number ?? 0 })}</p> : null
      }
      head={
        link ? (
          <a className="reports-link" href={link.url} download={link.filename}>
            {t('reports.exportLink', { filename: link.filename })}
          </a>
        ) : null
      }
      list={list}
      grid={grid}
      aside={
        <div className="reports-aside">
          <DeliveryLog report={focused} />
          <ReportSales report={focused} />
        </div>
      }
      bodyClassName="reports-body"
    >
      <DownloadDialog />
    </ListScreen>
  );
}
