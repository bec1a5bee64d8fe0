import { useRef } from 'react';
import type { Report } from '../../api/reports/contract';
import { reportSalesQuery } from '../../api/sales/queries';
import { useSignedInQuery } from '../../api/signedIn';
import { formatCents } from '../../shared/money';
import { useIntl, useT } from '../../i18n/provider';
import { ReturnButton, ReturnSaleDialog } from '../../ui/ReturnSaleDialog';

/**
 * The focused day's sales: each lead with its price, returned (and why) or 'Retourner la vente'.
 * A plain table in a focusable region beside the grid, as the delivery log.
 */
export function ReportSales({ report }: { report: Report | undefined }) {
  const t = useT();
  const intl = useIntl();
  const region = useRef<HTMLDivElement>(null);
  const sales = useSignedInQuery({ ...reportSalesQuery(report?.id ?? 0), enabled: report !== undefined });
  if (!report) return null;
  return (
    <section className="reports-log" aria-labelledby="reports-sales-title">
      <h2 id="reports-sales-title" className="reports-log-title">
        {t('reports.sales.title')}
      </h2>
      {sales.isError ? (
        <p role="alert" className="list-error">
          {t('reports.error.load')}
        </p>
      ) : sales.data?.length === 0 ? (
        <p className="muted">{t('reports.log.empty')}</p>
      ) : (
        <div className="table-wrap reports-log-table" tabIndex={0} role="region" aria-label={t('reports.sales.title')} ref={region}>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t('reports.log.lead')}</th>
                <th scope="col">{t('reports.log.at')}</th>
                <th scope="col" className="num">
                  {t('reports.sales.price')}
                </th>
                <th scope="col">{t('leads.sales.return')}</th>
              </tr>
            </thead>
            <tbody>
              {(sales.data ?? []).map((s) => (
                <tr key={s.id}>
                  <td>#{s.lead_id}</td>
                  <td className="nowrap">{intl.formatTime(s.sold_at, { hour: '2-digit', minute: '2-digit' })}</td>
                  <td className="num nowrap">{formatCents(s.price_cents, intl.locale)}</td>
                  <td>
                    {s.return_reason ? (
                      <span className="sales-returned">{t(`sales.return.reason.${s.return_reason}`)}</span>
                    ) : (
                      <ReturnButton sale={s} fallback={() => region.current} />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ReturnSaleDialog />
    </section>
  );
}
