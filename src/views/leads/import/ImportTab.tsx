import { useEffect, useMemo, useState } from 'react';
import { Button } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import type { Landing } from '../../../api/landings/contract';
import { useLeadExtras } from '../../../api/leads/hooks';
import { runCommand } from '../../../commands/registry';
import { useIntl, useT } from '../../../i18n/provider';
import { FreeEntryCombo } from '../FreeEntryCombo';
import { importState } from './importStore';
import { autoMatch, importTargets, missingRequired, unmappedHeaders } from './mapping';
import type { ParsedFile } from './parseFile';
import { useParseWorker } from './useParseWorker';

const PREVIEW_ROWS = 5;

interface Props {
  landingIds: readonly number[];
  /** The landing to import into, once loaded; undefined with several landings. */
  landing: Landing | undefined;
  loading: boolean;
}

/** Import CSV/XLSX: the source (utm_medium), then the file, its column mapping, a preview and the import. */
export function ImportTab({ landingIds, landing, loading }: Props) {
  const t = useT();
  const intl = useIntl();
  const state = useSnapshot(importState);
  const extras = useLeadExtras(landingIds);
  const parse = useParseWorker();
  const [source, setSource] = useState('');
  const [file, setFile] = useState<(ParsedFile & { name: string }) | null>(null);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  /** The user chose to import without the file's columns that feed nothing. */
  const [leaveOut, setLeaveOut] = useState(false);

  // Each visit of the tab (or of another landing) starts a new import.
  useEffect(() => {
    Object.assign(importState, { phase: 'idle', progress: 0, result: null, rowErrors: [] });
  }, [landing?.id]);

  const targets = useMemo(() => (landing ? importTargets(landing.columns, (k) => t(`leads.column.${k}`)) : []), [landing, t]);
  const problems = useMemo(() => (file ? missingRequired(targets, mapping, file.headers, file.rows) : []), [file, targets, mapping]);
  const unmapped = useMemo(() => (file ? unmappedHeaders(mapping, file.headers) : []), [file, mapping]);

  if (landingIds.length > 1) {
    return (
      <p role="alert" className="notice">
        {t('leads.import.multi')}
      </p>
    );
  }
  if (loading || !landing) {
    return (
      <p role="status" className="muted">
        {t('leads.import.loadingColumns')}
      </p>
    );
  }

  const onFile = async (f: File | undefined) => {
    setFile(null);
    setFailure(null);
    importState.result = null;
    importState.rowErrors = [];
    if (!f) return;
    importState.phase = 'parsing';
    importState.progress = 0;
    try {
      const parsed = await parse(await f.arrayBuffer(), (done) => (importState.progress = done));
      setFile({ ...parsed, name: f.name });
      setMapping(autoMatch(targets, parsed.headers));
      setLeaveOut(false);
      importState.phase = 'ready';
    } catch (error) {
      setFailure(t(`leads.import.failure.${(error as Error).message}`));
      importState.phase = 'idle';
    }
  };

  const sources = extras.data?.importFrom ?? [];
  const step2 = source.trim() !== '';
  const column = (key: string) => (file ? file.headers.indexOf(mapping[key]) : -1);
  const mapTo = (key: string, header: string) => setMapping((m) => ({ ...m, [key]: header }));
  const percent = intl.formatNumber(state.progress, { style: 'percent' });

  return (
    <div className="leads-import">
      <ol className="import-steps">
        <li>
          <h2 className="import-step-title">{t('leads.import.step1')}</h2>
          <FreeEntryCombo
            label={t('leads.import.source')}
            placeholder={t('leads.import.sourcePlaceholder')}
            showLabel={t('leads.import.sourceShow')}
            emptyLabel={t('leads.import.noSource')}
            value={source}
            onChange={setSource}
            suggestions={sources}
          />
        </li>
        <li aria-disabled={!step2}>
          <h2 className="import-step-title">{t('leads.import.step2')}</h2>
          <label className="field field-compact">
            <span>{t('leads.import.file')}</span>
            <input
              type="file"
              accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              disabled={!step2 || state.phase === 'parsing' || state.phase === 'sending'}
              aria-describedby="import-file-hint"
              onChange={(e) => void onFile(e.target.files?.[0])}
            />
          </label>
          <p id="import-file-hint" className="muted">
            {step2 ? t('leads.import.fileHint') : t('leads.import.sourceFirst')}
          </p>
          {state.phase === 'parsing' || state.phase === 'sending' ? (
            <div className="import-progress">
              {/* Reading has a measured progress; the import is one all-or-nothing request. */}
              <progress
                max={1}
                value={state.phase === 'parsing' ? state.progress : undefined}
                aria-label={state.phase === 'parsing' ? t('leads.import.reading') : t('leads.import.sending')}
                aria-valuetext={state.phase === 'parsing' ? percent : undefined}
              />
              <span>{state.phase === 'parsing' ? t('leads.import.readingPercent', { percent }) : t('leads.import.sending')}</span>
            </div>
          ) : null}
          {failure ? (
            <p role="alert" className="leads-error">
              {failure}
            </p>
          ) : null}
        </li>
      </ol>

      {file ? (
        <section className="import-file" aria-labelledby="import-file-title">
          <h2 id="import-file-title" className="import-step-title">
            {t('leads.import.fileSummary', {
              name: file.name,
              format: file.format.toUpperCase(),
              rows: intl.formatNumber(file.rows.length),
              count: file.rows.length,
            })}
            {file.encoding ? (
              <span className="muted">
                {' '}
                · {file.encoding} · « {file.delimiter === '\t' ? 'tab' : file.delimiter} »
              </span>
            ) : null}
          </h2>
          <h3 className="import-subtitle">{t('leads.import.mapping')}</h3>
          <div className="import-mapping">
            {targets.map((target) => (
              <label key={target.key} className="field field-compact">
                <span>
                  {target.label}
                  {target.required ? <abbr title={t('leads.import.required')}> *</abbr> : null}
                </span>
                <select value={mapping[target.key] ?? ''} onChange={(e) => mapTo(target.key, e.target.value)}>
                  <option value="">{t('leads.import.ignore')}</option>
                  {file.headers.map((h) => (
                    <option key={h} value={h}>
                      {h}
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </div>

          {unmapped.length > 0 ? (
            <div className="import-unmapped" role="group" aria-labelledby="import-unmapped-title">
              <h3 id="import-unmapped-title" className="import-subtitle">
                {t('leads.import.unmapped', { count: unmapped.length })}
              </h3>
              <p className="muted">{t('leads.import.unmappedHint')}</p>
              <ul className="import-unmapped-list">
                {unmapped.map((header) => (
                  <li key={header}>
                    <label className="field field-compact">
                      <span>
                        {header} <span className="muted">{t('leads.import.sample', { value: file.rows[0]?.[file.headers.indexOf(header)] ?? '' })}</span>
                      </span>
                      <select value="" onChange={(e) => e.target.value && mapTo(e.target.value, header)}>
                        <option value="">{t('leads.import.leaveOut')}</option>
                        {targets.map((target) => (
                          <option key={target.key} value={target.key}>
                            {mapping[target.key] ? t('leads.import.replaces', { column: target.label, header: mapping[target.key] }) : target.label}
                          </option>
                        ))}
                      </select>
                    </label>
                  </li>
                ))}
              </ul>
              <label className="leads-check">
                <input type="checkbox" checked={leaveOut} onChange={(e) => setLeaveOut(e.target.checked)} />
                {t('leads.import.leaveOutConfirm', { count: unmapped.length })}
              </label>
            </div>
          ) : null}

          <h3 className="import-subtitle">{t('leads.import.preview')}</h3>
          <div className="table-wrap">
            <table className="table import-preview">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  {targets.map((target) => (
                    <th scope="col" key={target.key}>
                      {target.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {file.rows.slice(0, PREVIEW_ROWS).map((row, r) => (
                  <tr key={r}>
                    <td>{r + 1}</td>
                    {targets.map((target) => (
                      <td key={target.key}>{column(target.key) >= 0 ? row[column(target.key)] : ''}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>

          {problems.length > 0 || state.rowErrors.length > 0 ? (
            <div className="import-problems" role="alert">
              <h3 className="import-subtitle">{t('leads.import.problems')}</h3>
              <ul>
                {problems.slice(0, 20).map((p) => (
                  <li key={`c${p.row}-${p.column}`}>{t('leads.import.missing', { row: p.row, column: p.message })}</li>
                ))}
                {state.rowErrors.slice(0, 50).map((p) => (
                  <li key={`s${p.row}-${p.column}`}>{t('leads.import.rowError', { row: p.row, column: p.column, message: p.message })}</li>
                ))}
              </ul>
            </div>
          ) : null}

          <Button
            className="btn btn-primary"
            isDisabled={problems.length > 0 || (unmapped.length > 0 && !leaveOut) || state.phase === 'sending' || state.phase === 'done'}
            onPress={() =>
              void runCommand('leads.import', { landingId: landing.id, source: source.trim(), headers: file.headers, rows: file.rows, mapping }, 'button')
            }
          >
            {t('leads.import.submit', { count: file.rows.length, rows: intl.formatNumber(file.rows.length) })}
          </Button>
        </section>
      ) : null}

      {state.result ? (
        <p role="status" className="import-summary">
          {t('leads.import.summary', {
            inserted: state.result.inserted,
            duplicates: state.result.duplicates,
          })}
        </p>
      ) : null}
    </div>
  );
}
