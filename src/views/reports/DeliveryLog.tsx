import { useEffect, useState } from 'react';
import type { Report } from '../../api/reports/contract';
import { useDeliveries } from '../../api/reports/hooks';
import { useIntl, useT } from '../../i18n/provider';

/** Moving through the days asks for a day's log once the focus rests. */
const SETTLE_MS = 250;

/**
 * The delivery log of the focused day: every attempt to hand its leads to the customer (mail,
 * webhook), newest first, with the answer or the reason it failed. A read-only record, so a
 * plain table beside the grid that owns the keys. Its title names the day whose log it shows,
 * which follows the focus once it rests: never a day's name over another day's sendings.
 */
export function DeliveryLog({ report }: { report: Report | undefined }) {
  const t = useT();
  const intl = useIntl();
  const [shown, setShown] = useState(report);
  useEffect(() => {
    const timer = setTimeout(() => setShown(report), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [report]);
  const log = useDeliveries(shown?.id);
  const day = shown ? intl.formatDate(`${shown.date}T12:00:00`, { dateStyle: 'long' }) : '';
  return (
    <section className="reports-log" aria-labelledby="reports-log-title" aria-busy={log.isFetching}>
      <h2 id="reports-log-title" className="reports-log-title">
        {shown ? t('reports.log.titleOf', { date: day }) : t('reports.log.title')}
      </h2>
      {log.isError ? (
        <p role="alert" className="list-error">
          {t('reports.error.load')}
        </p>
      ) : !shown ? (
        <p className="muted">{t('reports.log.pick')}</p>
      ) : log.data && log.data.length === 0 ? (
        // Leads counted whose sending is not logged (its job has not run yet, or it predates the log): never 'none delivered'.
        <p className="muted">{shown.count > 0 ? t('reports.log.noAttempts', { count: shown.count }) : t('reports.log.empty')}</p>
      ) : (
        <div className="table-wrap reports-log-table" tabIndex={0} role="region" aria-label={t('reports.log.title')}>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t('reports.log.at')}</th>
                <th scope="col">{t('reports.log.lead')}</th>
                <th scope="col">{t('reports.log.channel')}</th>
                <th scope="col">{t('reports.log.status')}</th>
                <th scope="col">{t('reports.log.target')}</th>
              </tr>
            </thead>
            <tbody>
              {(log.data ?? []).map((a) => (
                <tr key={a.id} className={a.status === 'failed' ? 'log-failed' : undefined}>
                  <td className="nowrap">{intl.formatTime(a.created_at, { hour: '2-digit', minute: '2-digit', second: '2-digit' })}</td>
                  <td>#{a.lead_id}</td>
                  <td className="nowrap">
                    {t(`reports.log.channel.${a.channel}`)}
                    {a.attempt > 1 ? ` · ${t('reports.log.attempt', { n: a.attempt })}` : ''}
                  </td>
                  <td>
                    {t(`reports.log.status.${a.status}`)}
                    {a.http_status ? ` (HTTP ${a.http_status})` : ''}
                    {a.error ? <span className="log-error"> — {a.error}</span> : null}
                    {a.will_retry ? <span className="muted"> · {t('reports.log.retry')}</span> : null}
                  </td>
                  <td className="break">{a.target}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
