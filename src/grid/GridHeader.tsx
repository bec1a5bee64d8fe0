import { memo, useEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent } from 'react';
import { DateRangeFilter } from './DateRangeFilter';
import type { GridColumnSpec, GridFilters, GridSort } from './types';

/** Column filters reach the loader this long after the last keystroke. */
const FILTER_DELAY_MS = 400;

const MIN_WIDTH = 48;

interface Props {
  columns: readonly GridColumnSpec[];
  cellStyles: readonly CSSProperties[];
  widths: Readonly<Record<string, number>>;
  sort: GridSort | null;
  filters: GridFilters;
  /** The select-all box; null in a list without selection (no check column). */
  checked: boolean | 'mixed' | null;
  t: (id: string, values?: Record<string, string | number>) => string;
  locale?: string;
  onSort: (sort: GridSort | null) => void;
  onFilters: (filters: GridFilters) => void;
  onResize: (key: string, width: number) => void;
  onToggleAll: () => void;
}

const nextSort = (sort: GridSort | null, key: string): GridSort | null =>
  sort?.key !== key ? { key, dir: 'asc' } : sort.dir === 'asc' ? { key, dir: 'desc' } : null;

/** Memoised: scrolling re-renders the rows, never the header. */
export const GridHeader = memo(function GridHeader(p: Props) {
  const [draft, setDraft] = useState<GridFilters>(p.filters);
  const applied = useRef(p.filters);

  // A new query from outside (another tab) replaces what was typed.
  useEffect(() => {
    if (p.filters !== applied.current) {
      applied.current = p.filters;
      setDraft(p.filters);
    }
  }, [p.filters]);

  const { onFilters } = p;
  useEffect(() => {
    if (draft === applied.current) return;
    const timer = setTimeout(() => {
      const clean = Object.fromEntries(Object.entries(draft).filter(([, v]) => v !== ''));
      applied.current = draft;
      onFilters(clean);
    }, FILTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [draft, onFilters]);

  const setFilter = (key: string, value: string) => setDraft((d) => ({ ...d, [key]: value }));

  return (
    <div role="rowgroup" className="lg-head">
      <div role="row" aria-rowindex={1} className="lg-row lg-head-row">
        {p.checked === null ? null : (
          <div role="columnheader" className="lg-cell lg-check">
            <input
              type="checkbox"
              ref={(el) => {
                if (el) el.indeterminate = p.checked === 'mixed';
              }}
              checked={p.checked === true}
              onChange={p.onToggleAll}
              aria-label={p.t('grid.selectAllLoaded')}
            />
          </div>
        )}
        {p.columns.map((c, i) => {
          const dir = p.sort?.key === c.key ? p.sort.dir : undefined;
          return (
            <div
              role="columnheader"
              key={c.key}
              className="lg-cell lg-colhead"
              style={p.cellStyles[i]}
              aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : undefined}
            >
              {c.sort === false ? (
                <span className="lg-sort lg-nosort">
                  <span className="lg-sort-label">{c.label}</span>
                </span>
              ) : (
                <button type="button" className="lg-sort" onClick={() => p.onSort(nextSort(p.sort, c.key))} title={p.t('grid.sortBy', { column: c.label })}>
                  <span className="lg-sort-label">{c.label}</span>
                  <span className="lg-sort-icon" aria-hidden="true">
                    {dir === 'asc' ? '▲' : dir === 'desc' ? '▼' : ''}
                  </span>
                </button>
              )}
              <ResizeHandle column={c} width={p.widths[c.key]} label={p.t('grid.resize', { column: c.label })} onResize={p.onResize} />
            </div>
          );
        })}
      </div>
      {/* Cells without a filter are plain cells: a header with nothing to say is noise to a screen reader. */}
      {p.columns.some((c) => c.filter !== false) ? (
        <div role="row" aria-rowindex={2} className="lg-row lg-filter-row">
          {p.checked === null ? null : <div role="gridcell" className="lg-cell lg-check" />}
          {p.columns.map((c, i) =>
            c.filter === false ? (
              <div role="gridcell" key={c.key} className="lg-cell lg-filter" style={p.cellStyles[i]} />
            ) : (
              <div role="columnheader" key={c.key} className="lg-cell lg-filter" style={p.cellStyles[i]}>
                <FilterInput column={c} value={draft[c.key] ?? ''} t={p.t} locale={p.locale} onChange={(v) => setFilter(c.key, v)} />
              </div>
            ),
          )}
        </div>
      ) : null}
    </div>
  );
});

function FilterInput({
  column,
  value,
  t,
  locale,
  onChange,
}: {
  column: GridColumnSpec;
  value: string;
  t: Props['t'];
  locale?: string;
  onChange: (v: string) => void;
}) {
  const label = t('grid.filterBy', { column: column.label });
  if (column.kind === 'date') return <DateRangeFilter column={column} value={value} t={t} locale={locale} onChange={onChange} />;
  if (column.kind === 'select' && column.options) {
    return (
      <select value={value} aria-label={label} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('grid.any')}</option>
        {column.options.map((o) => (
          <option key={o} value={o}>
            {column.optionLabel?.(o) ?? o}
          </option>
        ))}
      </select>
    );
  }
  return <input type="search" value={value} aria-label={label} placeholder="…" data-grid-filter={column.kind} onChange={(e) => onChange(e.target.value)} />;
}

function ResizeHandle({ column, width, label, onResize }: { column: GridColumnSpec; width: number; label: string; onResize: Props['onResize'] }) {
  const drag = useRef<{ x: number; width: number } | null>(null);
  const down = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, width };
  };
  const move = (e: PointerEvent<HTMLDivElement>) => {
    if (drag.current) onResize(column.key, Math.max(MIN_WIDTH, drag.current.width + e.clientX - drag.current.x));
  };
  const up = () => {
    drag.current = null;
  };
  const key = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.key === 'ArrowRight' ? 16 : e.key === 'ArrowLeft' ? -16 : 0;
    if (!step) return;
    e.preventDefault();
    onResize(column.key, Math.max(MIN_WIDTH, width + step));
  };
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={width}
      aria-valuemin={MIN_WIDTH}
      aria-valuemax={2000}
      tabIndex={0}
      className="lg-resize"
      onPointerDown={down}
      onPointerMove={move}
      onPointerUp={up}
      onPointerCancel={up}
      onKeyDown={key}
    />
  );
}
