import { memo } from 'react';
import { leadSources } from '../../api/leads/contract';
import { productionStatKeys, type RegionsData } from '../../api/productions/contract';
import { useIntl, useT } from '../../i18n/provider';

/**
 * Production over the selected departments: leads per source, then per status and per day.
 * Every row is there from the start ('…' until the figures arrive), so the tables never grow
 * under the map on a phone and push the Statistiques down as the data comes in.
 */
export const ProductionTable = memo(function ProductionTable({ data, busy }: { data: RegionsData | undefined; busy: boolean }) {
  const t = useT();
  const intl = useIntl();
  const sources = new Map(data?.sources.map((s) => [s.key, s.value]));
  const stats = new Map(data?.stats.map((s) => [s.key, s.value]));
  const figure = (value: number | undefined, fractionDigits = 0) => (data ? intl.formatNumber(value ?? 0, { maximumFractionDigits: fractionDigits }) : '…');
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
          {leadSources.map((key) => (
            <tr key={key}>
              <th scope="row">{t(`leads.source.${key}`)}</th>
              <td className="num">{figure(sources.get(key))}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="table production-table" aria-busy={busy}>
        <caption>{t('production.table.stats')}</caption>
        <tbody>
          {productionStatKeys.map((key) => (
            <tr key={key}>
              <th scope="row">{t(`production.stat.${key}`)}</th>
              <td className="num">{figure(stats.get(key), 1)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
});
