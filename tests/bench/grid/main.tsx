// The grid bench page: ?grid=ours renders the lead grid, ?grid=ag AG Grid Community, both on
// the same 100,000 rows; tests/bench/grid.bench.ts drives them in Chromium.
import { createIntl } from '@formatjs/intl';
import { AllCommunityModule, ModuleRegistry, type ColDef } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { createRoot } from 'react-dom/client';
import { Grid } from '../../../src/grid/Grid';
import { keysToColumns } from '../../../src/grid/columns';
import type { RowLoader } from '../../../src/grid/types';
import fr from '../../../src/i18n/fr.json';
import { scrollFrames, startFrames, stopFrames } from './frames';
import { KEYS, makeRows } from './rows';

const ROWS = 100_000;
const rows = makeRows(ROWS);
const which = new URLSearchParams(location.search).get('grid');

declare global {
  interface Window {
    bench: {
      ready: boolean;
      startFrames: typeof startFrames;
      stopFrames: typeof stopFrames;
      scroll: (step: number, count: number) => Promise<void>;
      rowElements: () => number;
    };
  }
}

// The element that scrolls the rows vertically, whatever each grid calls it.
const scroller = () =>
  [...document.querySelectorAll<HTMLElement>('#root *')].find(
    (el) => el.scrollHeight > 1_000_000 && el.clientHeight > 0 && getComputedStyle(el).overflowY !== 'visible',
  )!;
window.bench = {
  ready: false,
  startFrames,
  stopFrames,
  scroll: (step, count) => scrollFrames(scroller(), step, count),
  rowElements: () => document.querySelectorAll('[role=row]').length,
};

const root = createRoot(document.getElementById('root')!);
if (which === 'ag') {
  ModuleRegistry.registerModules([AllCommunityModule]);
  const columnDefs: ColDef[] = KEYS.map((field) => ({ field, sortable: true, filter: true, resizable: true, width: field === 'id' ? 84 : 140 }));
  root.render(
    <div style={{ flex: 1 }}>
      <AgGridReact
        rowData={rows}
        columnDefs={columnDefs}
        rowHeight={30}
        rowSelection={{ mode: 'multiRow' }}
        getRowId={(p) => String(p.data.id)}
        onFirstDataRendered={() => (window.bench.ready = true)}
      />
    </div>,
  );
} else {
  const intl = createIntl({ locale: 'fr', messages: fr });
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const columns = keysToColumns(KEYS);
  // Every row is loaded at once: the bench measures the grid with 100,000 rows in memory.
  const loader: RowLoader = async (req) => {
    const page = { rows: rows.slice(req.offset, req.offset + req.limit), total: rows.length, columns };
    window.bench.ready = true;
    return page;
  };
  root.render(<Grid loader={loader} queryKey="bench" label="Leads" t={t} pageSize={ROWS} />);
}
