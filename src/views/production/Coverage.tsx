import { coverageStates, type CoverageState, type DepartmentCode, type DepartmentCoverage } from '../../api/productions/contract';
import { useT } from '../../i18n/provider';

/**
 * The 'Couverture' layer's fills: a plain green where a rule would take a lead now, a plain grey
 * where none ever would, and patterns for the two states between (dots: full, stripes: closed),
 * so the state never rests on colour alone; the tooltip, the list and the table say it in words.
 */
export const coverageFills: Record<CoverageState, string> = {
  open: '#86efac',
  full: 'url(#map-cov-full)',
  closed: 'url(#map-cov-closed)',
  none: '#e5e7eb',
};

/** The patterns of the fills, defined once for the page (an SVG's fill may name another SVG's pattern). */
export function CoveragePatterns() {
  return (
    <svg width="0" height="0" className="visually-hidden" aria-hidden="true" focusable="false">
      <defs>
        <pattern id="map-cov-full" patternUnits="userSpaceOnUse" width="6" height="6">
          <rect width="6" height="6" fill="#fcd34d" />
          <circle cx="3" cy="3" r="1.3" fill="#78350f" />
        </pattern>
        <pattern id="map-cov-closed" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)">
          <rect width="6" height="6" fill="#c4b5fd" />
          <line x1="0" y1="0" x2="0" y2="6" stroke="#3b0764" strokeWidth="1.6" />
        </pattern>
      </defs>
    </svg>
  );
}

function Swatch({ state }: { state: CoverageState }) {
  return (
    <svg className="map-swatch" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
      <rect width="14" height="14" fill={coverageFills[state]} stroke="#6b7280" strokeWidth="1" />
    </svg>
  );
}

/** The layer's legend: each state with its fill and what it means. */
export function CoverageLegend() {
  const t = useT();
  return (
    <div className="map-legend">
      <ul className="map-legend-classes" aria-label={t('production.coverage.legend')}>
        {coverageStates.map((state) => (
          <li key={state}>
            <Swatch state={state} />
            {t(`production.coverage.state.${state}`)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** 'Zones sans acheteur': the departments where no rule would take a lead now nor once a cap frees (none, closed). */
export function UncoveredList({ coverage, nameOf }: { coverage: readonly DepartmentCoverage[]; nameOf: (code: DepartmentCode) => string }) {
  const t = useT();
  const uncovered = coverage.filter((d) => d.state === 'none' || d.state === 'closed');
  return (
    <section className="production-uncovered" aria-labelledby="production-uncovered-title">
      <h2 id="production-uncovered-title">{t('production.coverage.uncoveredList', { count: uncovered.length })}</h2>
      {uncovered.length === 0 ? (
        <p className="muted">{t('production.coverage.allCovered')}</p>
      ) : (
        <ul aria-labelledby="production-uncovered-title" tabIndex={0} data-uncovered="">
          {uncovered.map((d) => (
            <li key={d.departement}>
              <Swatch state={d.state} /> {nameOf(d.departement)} ({d.departement.slice(3)}) — {t(`production.coverage.state.${d.state}`)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
