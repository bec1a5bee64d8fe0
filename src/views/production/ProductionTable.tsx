import type { RegionsData } from '../../api/productions/contract';
import { useIntl, useT } from '../../i18n/provider';

/** Production over the selected departments: leads per source, then per status and per day. */
export function ProductionTable({ data, busy }: { data: RegionsData | undefined; busy: boolean }) {
  const t = useT();
  const intl = useIntl();
  return (
    <div className="production-tables">
      <table className="table production-table" aria-busy={busy}>
        <caption>{t('production.table.sources')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('production.table.source')}</th>
            <th scope="col" className="num">
              {t('production.table.leads')}
            </th>
          </tr>
        </thead>
        <tbody>
          {(data?.sources ?? []).map((s) => (
            <tr key={s.key}>
              <th scope="row">{t(`leads.source.${s.key}`)}</th>
              <td className="num">{intl.formatNumber(s.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="table production-table" aria-busy={busy}>
        <caption>{t('production.table.stats')}</caption>
        <tbody>
          {(data?.stats ?? []).map((s) => (
            <tr key={s.key}>
              <th scope="row">{t(`production.stat.${s.key}`)}</th>
              <td className="num">{intl.formatNumber(s.value, { maximumFractionDigits: 1 })}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
