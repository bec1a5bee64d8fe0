import { describe, expect, it } from 'vitest';
import { localPage } from '../../../../src/grid/localRows';
import type { GridColumnSpec } from '../../../../src/grid/types';

// Names in French order in the browser (issue 24, item 16): the grid's sorts, whatever the
// browser's own language (lists, selects and the palette keep the API's order, French too).

const names = ['Walk', 'Éco', 'Zèbre', 'abc', 'eco'];
const french = ['abc', 'eco', 'Éco', 'Walk', 'Zèbre'];

describe('names in French order', () => {
  it("sort a grid's text column", () => {
    const rows = names.map((name, i) => ({ id: i + 1, name }));
    const columns = [{ key: 'name', title: 'Nom', kind: 'text' }] as unknown as GridColumnSpec[];
    const page = localPage(rows, columns, { offset: 0, limit: 50, sort: { key: 'name', dir: 'asc' }, filters: {} });
    expect(page.rows.map((r) => r.name)).toEqual(french);
  });
});
