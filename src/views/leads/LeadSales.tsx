import { useRef } from 'react';
import { Link } from 'react-router';
import { leadSalesQuery } from '../../api/sales/queries';
import { useSignedInQuery } from '../../api/signedIn';
import { hrefOf } from '../../commands/screens';
import { useIntl, useT } from '../../i18n/provider';
import { ReturnButton, ReturnSaleDialog } from '../../ui/ReturnSaleDialog';

/** A sale's moment on the Paris clock, as the reports and the engine count it. */
const parisDateTime = { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Paris' } as const;

/**
 * Whom the lead was sold to, beside how it was routed: every sale oldest first (a lead can be
 * sold again after a re-injection, or to several customers), live by a rule — its name links to
 * the rule's reports — or by an export, and whether it was returned since (and why), or
 * 'Retourner la vente' while it stands.
 */
export function LeadSales({ landing, lead, onLeave }: { landing: number; lead: number; onLeave: () => void }) {
  const t = useT();
  const intl = useIntl();
  const query = useSignedInQuery(leadSalesQuery(landing, lead));
  const table = useRef<HTMLTableElement>(null);
  if (query.isPending) return <p role="status">{t('leads.sales.loading')}</p>;
  if (query.isError)
    return (
      <p role="alert" className="routing-error">
        {t('leads.sales.error')}
      </p>
    );
  const sales = query.data;
  if (sales.length === 0) return <p>{t('leads.sales.none')}</p>;
  return (
    <>
      {/* The table takes the focus once a sale is returned from it (its button is gone). */}
      <table className="table routing-table" ref={table} tabIndex={-1}>
        <caption>{t('leads.sales.caption', { count: sales.length })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('leads.sales.customer')}</th>
            <th scope="col">{t('leads.sales.channel')}</th>
            <th scope="col">{t('leads.sales.soldAt')}</th>
            <th scope="col">{t('leads.sales.return')}</th>
          </tr>
        </thead>
        <tbody>
          {sales.map((s) => (
            <tr key={s.id}>
              <th scope="row">
                {s.customer.name}
                {s.rule ? (
                  <span className="routing-customer">
                    <Link to={hrefOf('reports', { ruleId: s.rule.id })} onClick={onLeave}>
                      {s.rule.name}
                    </Link>
                  </span>
                ) : null}
              </th>
              <td>{s.channel === 'live' ? t('leads.sales.live') : t('leads.sales.export', { id: String(s.export_id ?? '—') })}</td>
              <td>
                {intl.formatDate(s.sold_at, parisDateTime)}
                {s.returned_at ? (
                  <span className="routing-customer">{t('leads.sales.returned', { date: intl.formatDate(s.returned_at, parisDateTime) })}</span>
                ) : null}
              </td>
              <td>
                {s.return_reason ? (
                  <span className="sales-returned">{t(`sales.return.reason.${s.return_reason}`)}</span>
                ) : (
                  <ReturnButton sale={s} fallback={() => table.current} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ReturnSaleDialog />
    </>
  );
}
