import { useCallback, useMemo, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { useReports } from '../../api/reports/hooks';
import { useProvideCommandContext } from '../../commands/context';
import type { GridHandle, RowId } from '../../grid/types';
import { useT } from '../../i18n/provider';
import '../../styles/lives.css';
import { DeliveryLog } from './DeliveryLog';
import { DownloadDialog } from './DownloadDialog';
import { ReportList } from './ReportList';
import './reports.css';
import type { ReportsCommandContext } from './store';

/** Reports (/customers/rules/rapports/:ruleId): a rule's days, the last export, a day's delivery log. */
export default function ReportsScreen() {
  const t = useT();
  const ruleId = Number(useParams().ruleId);
  const reports = useReports(ruleId);
  const gridRef = useRef<GridHandle | null>(null);
  const [focusedId, setFocusedId] = useState<RowId | undefined>(undefined);
  const list = reports.data?.data;
  const focused = useMemo(() => list?.find((r) => r.id === focusedId), [list, focusedId]);
  const byId = useCallback((id: number) => list?.find((r) => r.id === id), [list]);
  const rule = reports.data?.rule;
  const link = reports.data?.export ?? null;

  const ctx: ReportsCommandContext = useMemo(() => ({ ruleId, rule, focused, byId, grid: () => gridRef.current }), [ruleId, rule, focused, byId]);
  useProvideCommandContext({ view: 'reports', reports: ctx });

  return (
    <section className="lives-view" aria-labelledby="reports-title">
      <header className="lives-head">
        <div>
          <h1 id="reports-title">{rule?.name ? t('reports.titleOf', { name: rule.name }) : t('shell.screen.reports')}</h1>
          {rule?.customer_name ? <p className="lives-muted reports-sub">{t('reports.subtitle', { customer: rule.customer_name, cap: rule.leads_number ?? 0 })}</p> : null}
        </div>
        {link ? (
          <a className="reports-link" href={link.url} download={link.filename}>
            {t('reports.exportLink', { filename: link.filename })}
          </a>
        ) : null}
      </header>
      {reports.isError ? (
        <p role="alert" className="lives-error">
          {t('reports.error.load')}
        </p>
      ) : null}
      <div className="reports-body">
        <ReportList ruleId={ruleId} gridRef={gridRef} onFocusChange={setFocusedId} version={reports.data} />
        <DeliveryLog report={focused} />
      </div>
      <DownloadDialog />
    </section>
  );
}
