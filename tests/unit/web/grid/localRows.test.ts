// Lists the server answers whole (customers, rules, reports) get the grid's filters, sort and pages in the browser.
import { describe, expect, it } from 'vitest';
import { localPage } from '../../../../src/grid/localRows';
import type { GridColumnSpec, PageRequest } from '../../../../src/grid/types';

const columns: GridColumnSpec[] = [
  { key: 'name', label: 'Nom', kind: 'text' },
  { key: 'count', label: 'Nombre', kind: 'number' },
  { key: 'date', label: 'Date', kind: 'date' },
];
const rows = [
  { id: 1, name: 'Règle Gard', count: 10, date: '2026-11-20' },
  { id: 2, name: 'regle hérault', count: 2, date: '2026-11-22' },
  { id: 3, name: 'Bretagne', count: 30, date: '2026-11-25' },
];
const req = (over: Partial<PageRequest> = {}): PageRequest => ({ offset: 0, limit: 150, sort: null, filters: {}, ...over });
const ids = (r: ReturnType<typeof localPage>) => r.rows.map((row) => row.id);

describe('localPage', () => {
  it('filters text without accents or case, dates by range, and counts what matches', () => {
    const r = localPage(rows, columns, req({ filters: { name: 'REGLE' } }));
    expect(ids(r)).toEqual([1, 2]);
    expect(r.total).toBe(2);
    expect(ids(localPage(rows, columns, req({ filters: { name: 'herault' } })))).toEqual([2]);
    expect(ids(localPage(rows, columns, req({ filters: { date: '2026-11-21<>2026-11-25' } })))).toEqual([2, 3]);
    expect(ids(localPage(rows, columns, req({ filters: { date: '<>2026-11-20' } })))).toEqual([1]);
  });

  it('sorts numbers as numbers and words in order, both ways, and pages', () => {
    expect(ids(localPage(rows, columns, req({ sort: { key: 'count', dir: 'asc' } })))).toEqual([2, 1, 3]);
    expect(ids(localPage(rows, columns, req({ sort: { key: 'name', dir: 'desc' } })))).toEqual([2, 1, 3]);
    const page = localPage(rows, columns, req({ sort: { key: 'count', dir: 'desc' }, offset: 1, limit: 1 }));
    expect(ids(page)).toEqual([1]);
    expect(page.total).toBe(3);
  });

  it('filters on the text shown when told how a column reads', () => {
    const shown = (c: GridColumnSpec, row: Record<string, unknown>) => (c.key === 'count' ? `${row.count} leads` : String(row[c.key]));
    expect(ids(localPage(rows, columns, req({ filters: { count: '2 leads' } }), shown))).toEqual([2]);
  });
});
