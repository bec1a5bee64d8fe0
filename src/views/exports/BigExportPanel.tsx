import { Button } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { bigExportFormat } from '../../api/exports/contract';
import { useAllLandings } from '../../api/landings/hooks';
import { CommandButton } from '../../commands/CommandButton';
import { useIntl, useT } from '../../i18n/provider';
import { MultiSelect } from '../../ui/ChoiceSelect';
import { DateRange } from '../../ui/DateRange';
import { bigExportStatuses, exportsView } from './store';

/** 'Générer un export personnalisé' (folded until asked for), then the progress of the export under way. */
export function BigExportPanel() {
  const t = useT();
  const intl = useIntl();
  const { big, job, refusal } = useSnapshot(exportsView);
  const landings = useAllLandings();
  const statuses = bigExportStatuses.map((s) => ({ id: s, name: t(`leads.status.${s}`) }));
  const running = job !== null && (job.state === 'queued' || job.state === 'running');
  return (
    <section className="admin-section" aria-labelledby="big-export-toggle">
      <h2 className="visually-hidden">{t('exports.big.title')}</h2>
      <Button
        id="big-export-toggle"
        className="admin-section-toggle"
        aria-expanded={big.open}
        aria-controls="big-export-body"
        onPress={() => (exportsView.big.open = !big.open)}
      >
        <span aria-hidden="true">{big.open ? '▾' : '▸'}</span>
        {t('exports.big.title')}
      </Button>
      {big.open ? (
        <div id="big-export-body" className="admin-section-body" data-big-export="">
          <div className="admin-bar">
            <MultiSelect
              label={t('exports.big.landings')}
              placeholder={t('exports.big.chooseLandings')}
              items={landings.data ?? []}
              loading={!landings.data}
              value={big.landings}
              onChange={(keys) => (exportsView.big.landings = keys.map(Number))}
              field="big-landings"
            />
            <MultiSelect
              label={t('exports.big.statuses')}
              placeholder={t('exports.big.chooseStatuses')}
              items={statuses}
              value={big.statuses}
              onChange={(keys) => (exportsView.big.statuses = keys.map(String))}
              field="big-statuses"
            />
            <DateRange
              labels={[t('exports.big.start'), t('exports.big.end')]}
              start={big.start}
              end={big.end}
              required
              names={['big-start', 'big-end']}
              onChange={(start, end) => Object.assign(exportsView.big, { start, end })}
            />
            <label className="field field-compact">
              <span>{t('exports.big.format')}</span>
              <select value={big.format} onChange={(e) => (exportsView.big.format = e.target.value as typeof big.format)}>
                {bigExportFormat.options.map((f) => (
                  <option key={f} value={f}>
                    {f}
                  </option>
                ))}
              </select>
            </label>
            <CommandButton command="exports.generate" className="btn btn-primary" />
          </div>
        </div>
      ) : null}
      {/* Shown folded too: the export goes on while the panel is closed. */}
      <div className="admin-section-body admin-section-status" aria-live="polite">
        {job && running ? (
          <div className="admin-progress">
            <progress value={job.total ? job.written : undefined} max={job.total || undefined} aria-label={t('exports.big.progress')} />
            <span>
              {job.total
                ? t('exports.big.running', {
                    done: intl.formatNumber(job.written),
                    total: intl.formatNumber(job.total),
                    percent: Math.floor((100 * job.written) / job.total),
                  })
                : t('exports.big.queued')}
            </span>
          </div>
        ) : null}
        {job?.state === 'done' && job.export ? (
          <p className="admin-progress">
            {t('exports.big.ready', { count: intl.formatNumber(job.export.count) })}{' '}
            <a className="admin-link" href={job.export.url} download={job.export.filename}>
              {job.export.filename}
            </a>
          </p>
        ) : null}
        {refusal ? (
          <p role="alert" className="notice">
            {refusal}
          </p>
        ) : null}
      </div>
    </section>
  );
}
