import { useCallback, useEffect, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useSnapshot } from 'valtio';
import { useLiveEvents } from '../../api/events/hooks';
import type { ExportItem } from '../../api/exports/contract';
import { fetchExports } from '../../api/exports/requests';
import { useUsers } from '../../api/users/hooks';
import { runCommand } from '../../commands/registry';
import { getCommandContext, useProvideCommandContext } from '../../commands/context';
import { defaultFormatter } from '../../grid/Grid';
import type { GridColumnSpec, Row, RowLoader } from '../../grid/types';
import { useIntl, useT } from '../../i18n/provider';
import { userState } from '../../state/user';
import { toaster } from '../../ui/toasts';
import '../../styles/admin.css';
import { ListScreen, useListScreen, type ListGrid } from '../../ui/ListScreen';
import { BigExportPanel } from './BigExportPanel';
import { resumeBigExport } from './bigExportJob';
import { FilterBar } from './FilterBar';
import { exportsView, type ExportsCommandContext } from './store';

// Filtered by the bar above the grid, in the server's order (newest first).
const columns = (
  [
    { key: 'id', label: '', kind: 'number', width: 70 },
    { key: 'created', label: '', kind: 'date', width: 150 },
    // Out of the Tab order: the keyboard downloads the focused row's file with its command (d).
    {
      key: 'filename',
      label: '',
      kind: 'text',
      width: 260,
      cell: (row) => (
        <a
          href={(row as unknown as ExportItem).url}
          download={String(row.filename)}
          tabIndex={-1}
          className="lg-link list-file-link"
          title={String(row.filename)}
        >
          {String(row.filename)}
        </a>
      ),
    },
    { key: 'count', label: '', kind: 'number', width: 90 },
    { key: 'landing', label: '', kind: 'text', width: 200 },
    { key: 'user', label: '', kind: 'text', width: 160 },
    { key: 'for_customer', label: '', kind: 'text', width: 160 },
    { key: 'big_export', label: '', kind: 'text', width: 130 },
  ] satisfies GridColumnSpec[]
).map((c): GridColumnSpec => ({ ...c, filter: false, sort: false }));

// Enter or a double click on an export: its file.
const downloadFocused = () => void runCommand('exports.download', undefined, 'button');

/** The buyer typed reaches the list after this pause, as the grids' column filters (docs/product.md §9). */
const FILTER_DELAY_MS = 400;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** /exports/:userId (0: everybody's): the history of exports, its re-injection and the custom big export. */
export default function ExportsScreen() {
  const t = useT();
  const intl = useIntl();
  const userId = Number(useParams().userId);
  const { filters, meta } = useSnapshot(exportsView);
  const users = useUsers();

  const buyer = useDebounced(filters.forCustomer.trim(), FILTER_DELAY_MS);
  const query = useMemo(
    () => ({ userId, landings: [...filters.landings], start: filters.start, end: filters.end, forCustomer: buyer }),
    [userId, filters.landings, filters.start, filters.end, buyer],
  );
  const loader: RowLoader = useCallback(
    async (req, signal) => {
      const res = await fetchExports(query, req, signal);
      exportsView.meta = { totalLeads: res.total_leads, landings: res.landings, users: res.users, buyers: res.for_customer.map((b) => b.for_customer) };
      return { rows: res.data as unknown as Row[], total: res.total };
    },
    [query],
  );
  const list = useListScreen<ExportItem>({ loader });

  const grid: ListGrid = useMemo(() => {
    const base = defaultFormatter(intl.locale);
    const format = (c: GridColumnSpec, v: unknown) => {
      if (c.key === 'landing') return (v as number[]).map((id) => meta.landings[String(id)] ?? `#${id}`).join(', ');
      if (c.key === 'user') return v == null ? '' : (meta.users[String(v)] ?? String(v));
      if (c.key === 'big_export') return v ? t('exports.big.yes') : '';
      return base(c, v);
    };
    return { queryKey: JSON.stringify(query), columns, format, onOpen: downloadFocused };
  }, [intl.locale, meta, t, query]);

  const { focused, grid: gridHandle, refresh } = list;
  const ctx: ExportsCommandContext = useMemo(() => ({ userId, focused, grid: gridHandle, refresh }), [userId, focused, gridHandle, refresh]);
  useProvideCommandContext({ view: 'exports', exports: ctx });
  useEffect(() => void resumeBigExport(getCommandContext()).catch(() => {}), []);
  // An export made anywhere joins the history at once; the user's own are announced by their own command.
  useLiveEvents((event) => {
    if (event.type !== 'export.ready') return;
    if (event.data.user_id !== userState.userData?.id) toaster.info(t('exports.toast.ready', { id: event.data.export_id }));
    void refresh();
  });

  const owner = userId ? users.data?.find((u) => u.id === userId)?.name : undefined;

  return (
    <ListScreen
      name="exports"
      title={owner ? t('exports.titleOf', { name: owner }) : t('shell.screen.exports')}
      above={
        <>
          <FilterBar userId={userId} />
          <BigExportPanel />
        </>
      }
      list={list}
      grid={grid}
      status={
        <>
          {t('exports.totalLeads')} <strong>{intl.formatNumber(meta.totalLeads)}</strong>
        </>
      }
    />
  );
}
