import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import type { DepartmentCode, DepartmentCoverage, ProductionCategory } from '../../api/productions/contract';
import { runCommand } from '../../commands/registry';
import { Grid } from '../../grid/Grid';
import type { GridColumnSpec, GridHandle, Row, RowLoader } from '../../grid/types';
import { useIntl, useT } from '../../i18n/provider';
import { foldText } from '../../shared/foldText';
import { mapGeometry } from '../../map/geometry';
import { hrefOf } from '../../commands/screens';

interface Props {
  category: ProductionCategory;
  counts: ReadonlyMap<DepartmentCode, number>;
  /** The 'Couverture' layer's states while it is on: its columns join the table. */
  coverage: ReadonlyMap<DepartmentCode, DepartmentCoverage> | null;
  notes: ReadonlyMap<DepartmentCode, string>;
  selected: ReadonlySet<DepartmentCode>;
  open: boolean;
}

const columns: GridColumnSpec[] = [
  { key: 'code', label: '', kind: 'text', width: 80 },
  { key: 'name', label: '', kind: 'text', width: 200 },
  { key: 'value', label: '', kind: 'number', width: 100 },
  { key: 'selected', label: '', kind: 'text', width: 130 },
  { key: 'note', label: '', kind: 'text', width: 420 },
];
const coverageColumns: GridColumnSpec[] = [
  ...columns.slice(0, 3),
  { key: 'state', label: '', kind: 'text', width: 220 },
  { key: 'open_rules', label: '', kind: 'number', width: 120 },
  { key: 'remaining_today', label: '', kind: 'number', width: 140 },
  { key: 'unsold_today', label: '', kind: 'number', width: 150 },
  ...columns.slice(3),
];

/**
 * 'Statistiques': every department with its count of leads and its note, sortable and filtered
 * by the grid — what the map shows, as a table (the map's accessible alternative). Collapsible.
 */
export const StatisticsTable = memo(function StatisticsTable({ category, counts, coverage, notes, selected, open }: Props) {
  const t = useT();
  const intl = useIntl();
  const gridRef = useRef<GridHandle | null>(null);
  const rows = useMemo(
    () =>
      mapGeometry().departments.map((d) => {
        const c = coverage?.get(d.code);
        return {
          id: d.code,
          code: d.code.slice(3),
          name: d.name,
          value: counts.get(d.code) ?? 0,
          ...(c
            ? { state: t(`production.coverage.state.${c.state}`), open_rules: c.open_rules, remaining_today: c.remaining_today, unsold_today: c.unsold_today }
            : {}),
          selected: selected.has(d.code) ? t('production.stats.yes') : '',
          note: notes.get(d.code) ?? '',
        };
      }),
    [counts, coverage, notes, selected, t],
  );

  const loader: RowLoader = useCallback(
    async (req) => {
      const filters = Object.entries(req.filters).map(([key, value]) => [key, foldText(value)] as const);
      let list: Row[] = rows.filter((r) => filters.every(([key, value]) => foldText(String(r[key as keyof typeof r])).includes(value)));
      if (req.sort) {
        const { key, dir } = req.sort;
        const sign = dir === 'asc' ? 1 : -1;
        list = [...list].sort((a, b) => {
          const [x, y] = [a[key], b[key]];
          return sign * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), 'fr'));
        });
      }
      return { rows: list.slice(req.offset, req.offset + req.limit), total: list.length };
    },
    [rows],
  );
  useEffect(() => {
    void gridRef.current?.refresh();
  }, [loader]);

  const columnLabel = useCallback((c: GridColumnSpec) => t(`production.stats.${c.key}`), [t]);
  // A row's department goes onto the map (its focus and the selection): Enter, a double click, or
  // a click on its name — a link to the map on that department, so a middle click opens a tab.
  const onOpen = useCallback((row: Row) => void runCommand('production.select', { code: row.id as DepartmentCode }, 'hotkey'), []);
  const link = useCallback(
    (column: GridColumnSpec, row: Row) => (column.key === 'name' ? hrefOf('production', { category }, { departement: String(row.id) }) : undefined),
    [category],
  );
  const onLink = useCallback((href: string) => {
    const code = new URL(href, window.location.origin).searchParams.get('departement') as DepartmentCode | null;
    if (code) void runCommand('production.select', { code }, 'button');
  }, []);
  return (
    <section className="production-stats" aria-labelledby="production-stats-title">
      <h2 id="production-stats-title" className="production-stats-title">
        <button
          type="button"
          className="btn production-disclosure"
          aria-expanded={open}
          aria-controls="production-stats-body"
          onClick={() => void runCommand('production.toggleStats', undefined, 'button')}
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> {t('production.stats')}
        </button>
      </h2>
      <div id="production-stats-body" hidden={!open} className="production-stats-body">
        {open ? (
          <Grid
            key={coverage ? 'coverage' : 'counts'}
            queryKey={coverage ? 'production-stats-coverage' : 'production-stats'}
            loader={loader}
            columns={coverage ? coverageColumns : columns}
            label={t('production.stats')}
            t={t}
            columnLabel={columnLabel}
            locale={intl.locale}
            handleRef={gridRef}
            selectable={false}
            onOpen={onOpen}
            link={link}
            onLink={onLink}
            className="production-grid"
          />
        ) : null}
      </div>
    </section>
  );
});
