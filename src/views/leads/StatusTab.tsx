import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useSnapshot } from 'valtio';
import type { EntryStatus, LeadRow } from '../../api/leads/contract';
import { useAllLandings } from '../../api/landings/hooks';
import { fetchLeadCount, fetchLeadPage, leadColumns, leadFilters } from '../../api/leads/requests';
import { ApiError } from '../../api/client';
import { useLiveEvents, useLiveResync } from '../../api/events/hooks';
import { userState } from '../../state/user';
import { CommandMenu } from '../../commands/CommandMenu';
import { runCommand } from '../../commands/registry';
import { toaster } from '../../ui/toasts';
import { defaultFormatter, Grid } from '../../grid/Grid';
import type { GridHandle } from '../../grid/types';
import type { GridColumnSpec, GridQuery, GridSelectionInfo, Row, RowLoader } from '../../grid/types';
import { useIntl, useT } from '../../i18n/provider';
import { ConvertDialog } from './ConvertDialog';
import { ExportControls } from './ExportControls';
import { RoutingDialog } from './RoutingDialog';
import { SelectFirst } from './SelectFirst';
import { ListCeiling, listKey, moveCeiling } from './ceiling';
import { LiveBar } from './LiveBar';
import { tabChange } from './live';
import { leadPath, leadView } from './store';
import { toneOf } from './tone';
import { UndoBar } from './UndoBar';

const rowTone = (row: Row) => toneOf(row.value);

/** The live notices kept on screen, the newest last. */
const MAX_NOTICES = 3;

/** The doublons list gets a column of its own after the id and the date: the lead each one repeats. */
function withOriginal(columns: GridColumnSpec[], show: boolean): GridColumnSpec[] {
  if (!show) return columns;
  const at = columns.findIndex((c) => c.key === 'created_at') + 1;
  return [...columns.slice(0, at), { key: 'duplicate_of', label: '', kind: 'text', width: 200, sort: false, filter: false }, ...columns.slice(at)];
}

interface Props {
  landingIds: readonly number[];
  status: EntryStatus;
  selection: GridSelectionInfo | null;
  onSelectionChange: (info: GridSelectionInfo) => void;
  onColumns: (columns: readonly GridColumnSpec[]) => void;
  /** The list's filters and sort, kept in the view's URL (listUrl.ts). */
  query: GridQuery;
  onQueryChange: (query: GridQuery) => void;
}

/**
 * A status tab (Nouveaux, Extraits, Archivés, Mauvais, Doublons): the actions bar and the grid.
 * Memoised: the lead screen renders again as its counts, saved views and selection come; the tab
 * and its grid only when what they are given changes.
 */
export const StatusTab = memo(function StatusTab({ landingIds, status, selection, onSelectionChange, onColumns, query, onQueryChange }: Props) {
  const t = useT();
  const intl = useIntl();
  const columnsRef = useRef<GridColumnSpec[]>([]);
  // This tab's own: the lead view's tabs are mounted one after another, and a tab on its way out
  // cleared a ref they shared after the next one had set it.
  const gridRef = useRef<GridHandle | null>(null);
  const all = useAllLandings();
  const [ceiling] = useState(() => new ListCeiling());

  // Landing ids, statuses and sources read as words; the rest as the grid formats it.
  const format = useMemo(() => {
    const names = new Map((all.data ?? []).map((l) => [l.id, l.name]));
    const base = defaultFormatter(intl.locale);
    return (column: GridColumnSpec, value: unknown) => {
      if (column.key === 'duplicate_of' && value === null) return t('leads.duplicateOf.gone');
      if (value === null || value === undefined || value === '') return '';
      if (column.key === 'landing' || column.key === 'landing_id') return names.get(Number(value)) ?? String(value);
      if (column.key === 'entry_status') return t(`leads.status.${String(value)}`);
      if (column.key === 'source') return t(`leads.source.${String(value)}`);
      if (column.key === 'duplicate_of') {
        const of = value as NonNullable<LeadRow['duplicate_of']>;
        return t('leads.duplicateOf', { id: String(of.id), status: t(`leads.status.${of.entry_status}`) });
      }
      return base(column, value);
    };
  }, [all.data, intl.locale, t]);

  // The doublons tab shows, for each duplicate, the lead it repeats, as a link to it.
  const original = status === 'duplicate';
  const linkOf = useCallback((column: GridColumnSpec, row: Row) => {
    const of = (row as LeadRow).duplicate_of;
    return column.key === 'duplicate_of' && of ? (leadPath((row as LeadRow).landing, of) ?? undefined) : undefined;
  }, []);
  const onLink = useCallback((path: string) => void runCommand('leads.openOriginal', { path }, 'button'), []);

  const loader: RowLoader = useCallback(
    async (req, signal) => {
      try {
        const pageRequest = { landingIds, status, offset: req.offset, limit: req.limit, sort: req.sort, filters: leadFilters(req.filters, columnsRef.current) };
        const res = await ceiling.read(listKey(landingIds, status), (under) => fetchLeadPage({ ...pageRequest, ceiling: under }, signal));
        const columns = withOriginal(leadColumns(res.keys), original);
        if (JSON.stringify(columns) !== JSON.stringify(columnsRef.current)) {
          columnsRef.current = columns;
          onColumns(columns);
        }
        const exactTotal = res.total_exact ? undefined : () => fetchLeadCount({ ...pageRequest, ceiling: res.ceiling }, signal);
        return { rows: res.data as (LeadRow & Row)[], total: res.total, exactTotal, columns: columnsRef.current };
      } catch (error) {
        if (!signal.aborted) toaster.warning(error instanceof ApiError && error.status === 404 ? t('leads.error.noLeads') : t('leads.error.list'));
        throw error;
      }
    },
    [landingIds, status, t, onColumns, original, ceiling],
  );

  // Fixed columns are named in the current language at render time; form columns keep their landing's label.
  const columnLabel = useCallback((c: GridColumnSpec) => (c.label ? c.label : t(`leads.column.${c.key}`)), [t]);

  const selected = selection ? (selection.allMatching ? selection.total : selection.selected.size) : 0;
  const total = selection?.total ?? 0;
  const queryKey = useMemo(() => listKey(landingIds, status), [landingIds, status]);
  const rowMenu = useMemo(() => ({ menu: 'leads.row' as const, label: t('leads.row.menu') }), [t]);

  const focusGrid = useCallback(() => gridRef.current?.focus(), []);

  // The live events (issue 28). Arrivals wait behind the bar: rows never move under the cursor.
  // Leads others moved leave the list at once, and the selection, so that an action on the
  // selection never meets them (a 409); the notice says who moved them. The user's own (another
  // browser tab's) leave without a notice.
  useEffect(() => {
    leadView.arrived = 0;
    leadView.notices = [];
  }, [queryKey]);
  useLiveEvents((event) => {
    const change = tabChange(event, { landingIds, status, me: userState.userData?.id });
    if (!change) return;
    if (change.arrived > 0) leadView.arrived += change.arrived;
    const gone = change.departure;
    const grid = gridRef.current;
    if (!gone || !grid) return;
    const selected = grid.selection().selected;
    const unselected = gone.ids.filter((id) => selected.has(id)).length;
    grid.remove(gone.ids);
    if (gone.mine) return;
    const notice = { key: event.id, to: gone.to, by: gone.by, count: gone.ids.length, unselected };
    leadView.notices = [...leadView.notices, notice].slice(-MAX_NOTICES);
  });
  useLiveResync(() => {
    leadView.arrived = 0;
    moveCeiling();
    void gridRef.current?.refresh();
  });
  // Escape in a field of the tab (export form, filters) gives the keys back to the grid.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Escape' || e.defaultPrevented || !(e.target as HTMLElement).matches('input, select')) return;
    e.preventDefault();
    focusGrid();
  };

  return (
    <div className="leads-status" onKeyDown={onKeyDown}>
      <ExportControls landingIds={landingIds} />
      <div className="leads-bar">
        <CommandMenu menu="leads.actions" variant="toolbar" label={t('leads.actions')} className="leads-actions" />
        <SelectFirst />
        <CommandMenu menu="leads.list" variant="toolbar" label={t('leads.list')} className="leads-refresh" />
        <p className="leads-totals" aria-live="polite">
          {t('leads.totals', {
            total: selection?.totalExact === false ? t('leads.estimate', { n: intl.formatNumber(total) }) : intl.formatNumber(total),
            n: total,
            selected: intl.formatNumber(selected),
            count: selected,
          })}
        </p>
      </div>
      <UndoBar />
      <LiveBar onDone={focusGrid} />
      <Grid
        key={queryKey}
        queryKey={queryKey}
        loader={loader}
        label={t('leads.grid')}
        t={t}
        format={format}
        rowTone={rowTone}
        columnLabel={columnLabel}
        link={original ? linkOf : undefined}
        onLink={onLink}
        handleRef={gridRef}
        onSelectionChange={onSelectionChange}
        query={query}
        onQueryChange={onQueryChange}
        rowMenu={rowMenu}
        className="leads-grid"
      />
      <ConvertDialogHost landingIds={landingIds} />
      <RoutingDialog returnFocus={focusGrid} />
    </div>
  );
});

function ConvertDialogHost({ landingIds }: { landingIds: readonly number[] }) {
  const { convertOpen } = useSnapshot(leadView);
  return convertOpen ? <ConvertDialog exclude={landingIds} /> : null;
}
