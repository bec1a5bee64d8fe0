import type { ChoroplethClass } from '../../map/classes';
import { classColors, NO_LEAD_COLOR } from '../../map/DepartmentMap';
import { useIntl, useT } from '../../i18n/provider';

/** The choropleth's classes with their ranges, the 'no lead' swatch, and how selection and colours show. */
export function Legend({ classes }: { classes: readonly ChoroplethClass[] }) {
  const t = useT();
  const intl = useIntl();
  const colors = classColors(classes.length);
  const range = (c: ChoroplethClass) =>
    c.lo === c.hi ? intl.formatNumber(c.lo) : t('production.legend.range', { lo: intl.formatNumber(c.lo), hi: intl.formatNumber(c.hi) });
  return (
    <div className="map-legend">
      <h2 className="visually-hidden">{t('production.legend')}</h2>
      {/* Two lists: the classes, whose space is kept while the counts load (production.css), then the marks. */}
      <ul className="map-legend-classes" aria-label={t('production.legend')}>
        <li>
          <span className="map-swatch" style={{ background: NO_LEAD_COLOR }} aria-hidden="true" />
          {t('production.legend.none')}
        </li>
        {classes.map((c, i) => (
          <li key={c.lo}>
            <span className="map-swatch" style={{ background: colors[i] }} aria-hidden="true" />
            {range(c)}
          </li>
        ))}
      </ul>
      <ul aria-label={t('production.legend.marks')}>
        <li>
          <span className="map-swatch map-swatch-selected" aria-hidden="true" />
          {t('production.legend.selected')}
        </li>
        <li>
          <span className="map-swatch map-swatch-colored" aria-hidden="true" />
          {t('production.legend.colored')}
        </li>
      </ul>
    </div>
  );
}
