// @vitest-environment jsdom
// Rows draw the columns within a screen's width of the part shown (columnWindow.ts); the header
// keeps every column, and each cell drawn says its column.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { I18nProvider } from 'react-aria-components';
import { describe, expect, it } from 'vitest';
import { columnEdges, columnWindow } from '../../../../src/grid/columnWindow';
import { Grid } from '../../../../src/grid/Grid';
import { keysToColumns } from '../../../../src/grid/columns';
import type { RowLoader } from '../../../../src/grid/types';
import { gridDom, t } from '../gridHarness';

describe('columnWindow', () => {
  const edges = columnEdges(Array.from({ length: 30 }, () => 100));

  it('draws every column while the width shown is not known', () => {
    expect(columnWindow(edges, 0, 0)).toEqual({ first: 0, last: 29, before: 0 });
    expect(columnWindow([0], 0, 300)).toEqual({ first: 0, last: -1, before: 0 });
  });

  it('draws the columns shown and a screen more on each side, within the list', () => {
    // 300 px shown from the start: columns 0–2 on screen, 3–5 within a screen to the right.
    expect(columnWindow(edges, 0, 300)).toEqual({ first: 0, last: 5, before: 0 });
    // From 1,500 px: 15–17 on screen, 12–14 and 18–20 around them.
    expect(columnWindow(edges, 1500, 300)).toEqual({ first: 12, last: 20, before: 1200 });
    expect(columnWindow(edges, 2750, 300)).toEqual({ first: 24, last: 29, before: 2400 });
  });

  it('keeps a column part of which is within reach', () => {
    expect(columnWindow(columnEdges([250, 250, 250, 250]), 420, 100)).toEqual({ first: 1, last: 2, before: 250 });
  });
});

describe('Grid columns drawn', () => {
  gridDom();
  const keys = Array.from({ length: 30 }, (_, i) => `c${i}`);
  const loader: RowLoader = async (req) => ({
    rows: Array.from({ length: Math.min(req.limit, 40 - req.offset) }, (_, r) => ({
      id: req.offset + r + 1,
      ...Object.fromEntries(keys.map((k) => [k, `${k} r${req.offset + r + 1}`])),
    })),
    total: 40,
    columns: keysToColumns(keys).map((c) => ({ ...c, width: 100 })),
  });

  it('draws the columns near the screen in each row, all in the header, and follows a horizontal scroll', async () => {
    render(
      <I18nProvider locale="fr-FR">
        <Grid loader={loader} queryKey="cols" label="Leads" t={t} />
      </I18nProvider>,
    );
    const grid = screen.getByRole('grid');
    await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe('42'));
    expect(grid.getAttribute('aria-colcount')).toBe('31');
    expect(screen.getAllByRole('columnheader').filter((h) => /^c\d+$/.test(h.textContent ?? ''))).toHaveLength(30);

    const firstRow = () => screen.getAllByRole('row').find((r) => r.dataset.index === '0')!;
    const cells = () => within(firstRow()).getAllByRole('gridcell').slice(1);
    // 1,000 px shown (the harness's width): the columns up to 2,000 px, the check column excluded.
    await waitFor(() => expect(cells().map((c) => c.textContent)).toEqual(Array.from({ length: 20 }, (_, i) => `c${i} r1`)));
    expect(cells().map((c) => c.getAttribute('aria-colindex'))).toEqual(Array.from({ length: 20 }, (_, i) => String(i + 2)));
    expect(within(firstRow()).getAllByRole('gridcell')[0]!.getAttribute('aria-colindex')).toBe('1');

    act(() => {
      grid.scrollLeft = 1536;
      grid.dispatchEvent(new Event('scroll'));
    });
    // 1,500 px of columns scrolled (36 for the check column): from 500 to 3,500 px.
    await waitFor(() => expect(cells()[0]!.textContent).toBe('c5 r1'));
    expect(cells().map((c) => c.getAttribute('aria-colindex'))).toEqual(Array.from({ length: 25 }, (_, i) => String(i + 7)));
    expect(firstRow().querySelector<HTMLElement>('.lg-skip')!.style.width).toBe('500px');
  });
});
