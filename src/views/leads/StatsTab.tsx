import { useState } from 'react';
import { ApiError } from '../../api/client';
import { leadSources, type DepartmentStat, type StatsCategory } from '../../api/leads/contract';
import { useDepartmentStats } from '../../api/leads/hooks';
import { toneOf } from './tone';
import { useIntl, useT } from '../../i18n/provider';
import { last90Days } from '../../shared/dates';
import { DateRange } from '../../ui/DateRange';

/** The server's own message for a request it refused (an end before the start…), else the generic one. */
function statsError(error: unknown, t: (id: string) => string): string {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 404 && error.message
    ? error.message
    : t('leads.error.stats');
}

interface Props {
  landingIds: readonly number[];
  category: StatsCategory;
  zoneAvailable: boolean;
}

/** Production, Convertis, Production extraites, En stock: leads per department (or climate zone) and source. */
export function StatsTab({ landingIds, category, zoneAvailable }: Props) {
  const t = useT();
  const intl = useIntl();
  const [[start, end], setRange] = useState(last90Days);
  const [zone, setZone] = useState(false);
  const stats = useDepartmentStats({ landingIds, category, start, end, zone: zone && zoneAvailable });
  const byZone = zone && zoneAvailable;
  const rows = stats.data ?? [];
  const totals = rows.reduce(
    (sum, r) => {
      sum.value += r.value;
      for (const s of leadSources) sum[s] += r[s];
      return sum;
    },
    { value: 0, ...Object.fromEntries(leadSources.map((s) => [s, 0])) } as Record<'value' | (typeof leadSources)[number], number>,
  );
  const caption = t(`leads.tab.${category}`);

  return (
    <div className="leads-stats">
      <div className="leads-bar">
        <DateRange
          labels={[t('leads.stats.start'), t('leads.stats.end')]}
          start={start}
          end={end}
          required
          names={['stats-start', 'stats-end']}
          onChange={(s, e) => setRange([s, e])}
        />
        {zoneAvailable ? (
          <label className="leads-check">
            <input type="checkbox" checked={zone} onChange={(e) => setZone(e.target.checked)} />
            {t('leads.stats.zone')}
          </label>
        ) : null}
      </div>
      {stats.isError ? (
        <p role="alert" className="leads-error">
          {statsError(stats.error, t)}
        </p>
      ) : null}
      {/* Scrolls on its own: focusable so the keyboard can scroll it too. */}
      <div className="table-wrap leads-stats-table" role="region" aria-label={caption} tabIndex={0}>
        <table className="table" aria-busy={stats.isFetching}>
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{byZone ? t('leads.stats.zoneColumn') : t('leads.stats.department')}</th>
              <th scope="col" className="num">
                {t(`leads.stats.valueOf.${category}`)}
              </th>
              {leadSources.map((s) => (
                <th scope="col" key={s} className="num">
                  {t(`leads.source.${s}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r: DepartmentStat) => {
              const label = byZone ? r.zone_climatique : r.departement;
              return (
                <tr key={label || '—'} className={toneOf(r.value) ? `tone-${toneOf(r.value)}` : undefined}>
                  <th scope="row">{label || t('leads.stats.unknown')}</th>
                  <td className="num">{intl.formatNumber(r.value)}</td>
                  {leadSources.map((s) => (
                    <td key={s} className="num">
                      {intl.formatNumber(r[s])}
                    </td>
                  ))}
                </tr>
              );
            })}
            {stats.isSuccess && rows.length === 0 ? (
              <tr>
                <td colSpan={leadSources.length + 2} className="muted">
                  {t('leads.stats.empty')}
                </td>
              </tr>
            ) : null}
          </tbody>
          {rows.length > 0 ? (
            <tfoot>
              <tr>
                <th scope="row">{t('leads.stats.total')}</th>
                <td className="num">{intl.formatNumber(totals.value)}</td>
                {leadSources.map((s) => (
                  <td key={s} className="num">
                    {intl.formatNumber(totals[s])}
                  </td>
                ))}
              </tr>
            </tfoot>
          ) : null}
        </table>
      </div>
    </div>
  );
}
