import { memo, type CSSProperties } from 'react';
import type { ColumnWindow } from './columnWindow';
import type { GridColumnSpec, Row, RowTone } from './types';

export interface GridRowProps {
  domId: string;
  index: number;
  /** Header rows above the first (the column names, and the filters when a column has one). */
  headRows: number;
  row: Row | undefined;
  columns: readonly GridColumnSpec[];
  /** The columns drawn (columnWindow.ts); each cell says its column with aria-colindex. */
  window: ColumnWindow;
  cellStyles: readonly CSSProperties[];
  start: number;
  focused: boolean;
  /** null in a list without selection: no check cell. */
  selected: boolean | null;
  tone: RowTone;
  selectLabel: string;
  loadingLabel: string;
  format: (column: GridColumnSpec, value: unknown) => string;
  /** Where a cell leads, when it is a link (the lead a duplicate repeats). */
  link?: (column: GridColumnSpec, row: Row) => string | undefined;
  /** Whether a text fits the column at that position unclipped. */
  fits: (text: string, column: number) => boolean;
}

/**
 * One row. Memoised on plain props: moving the focus re-renders the two rows whose `focused`
 * changed and nothing else; clicks are handled once on the rowgroup (Grid), not per row. The
 * element of a row scrolled out is given the row scrolled in (Grid keys rows by slot): updating
 * its text costs less than building and styling new elements.
 */
export const GridRow = memo(function GridRow(p: GridRowProps) {
  const className = `lg-row${p.focused ? ' is-focused' : ''}${p.selected ? ' is-selected' : ''}${p.tone ? ` tone-${p.tone}` : ''}`;
  return (
    <div
      role="row"
      id={p.domId}
      className={className}
      aria-rowindex={p.index + p.headRows + 1}
      aria-selected={p.selected ?? undefined}
      data-index={p.index}
      style={{ transform: `translateY(${p.start}px)` }}
    >
      {p.selected === null ? null : (
        <div role="gridcell" aria-colindex={1} className="lg-cell lg-check">
          {/* Drawn, not an <input>: a native input per mounted row costs listeners and layout while scrolling. */}
          <span role="checkbox" aria-checked={p.selected} aria-label={p.selectLabel} className="lg-box" data-check="" />
        </div>
      )}
      {p.row ? (
        <>
          {p.window.before > 0 ? <div className="lg-skip" style={{ width: p.window.before }} aria-hidden="true" /> : null}
          {p.columns.slice(p.window.first, p.window.last + 1).map((c, j) => {
            const i = p.window.first + j;
            const colIndex = i + (p.selected === null ? 1 : 2);
            if (c.cell) {
              return (
                <div role="gridcell" aria-colindex={colIndex} key={c.key} className={`lg-cell kind-${c.kind} lg-drawn`} style={p.cellStyles[i]}>
                  {c.cell(p.row!)}
                </div>
              );
            }
            const text = p.format(c, p.row![c.key]);
            // A text that may be cut short is shown whole on hover.
            const clipped = !p.fits(text, i);
            const href = p.link?.(c, p.row!);
            return (
              <div
                role="gridcell"
                aria-colindex={colIndex}
                key={c.key}
                className={`lg-cell kind-${c.kind}${clipped ? ' lg-clip' : ''}`}
                style={p.cellStyles[i]}
                title={clipped ? text : undefined}
              >
                {/* Out of the Tab order: the keyboard follows it with its command from the focused row. */}
                {href ? (
                  <a href={href} tabIndex={-1} className="lg-cell-link">
                    {text}
                  </a>
                ) : (
                  text
                )}
              </div>
            );
          })}
        </>
      ) : (
        <div role="gridcell" className="lg-cell lg-loading" aria-busy="true">
          {p.loadingLabel}
        </div>
      )}
    </div>
  );
});
