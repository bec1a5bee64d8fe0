import { useCallback, useEffect, useMemo, type RefObject } from 'react';
import { queryClient } from '../../api/queryClient';
import type { Report } from '../../api/reports/contract';
import { reportsQuery } from '../../api/reports/queries';
import { CommandMenu } from '../../commands/CommandMenu';
import { RowCommand } from '../../commands/RowCommand';
import { runCommand } from '../../commands/registry';
import { defaultFormatter, Grid } from '../../grid/Grid';
import { localLoader } from '../../grid/localRows';
import type { GridColumnSpec, GridHandle, GridSelectionInfo, Row, RowId } from '../../grid/types';
import { useIntl, useT } from '../../i18n/provider';
import { reportTone } from './store';

interface Props {
  ruleId: number;
  gridRef: RefObject<GridHandle | null>;
  onFocusChange: (id: RowId | undefined) => void;
  /** The reports as last fetched: when they change (a delivery grew a count) the grid reads them again. */
  version: unknown;
}

const columns: GridColumnSpec[] = [
  { key: 'date', label: '', kind: 'date', width: 130 },
  { key: 'count', label: '', kind: 'number', width: 110 },
  { key: 'leads_number', label: '', kind: 'number', width: 110 },
  { key: 'zip', label: '', kind: 'text', width: 220 },
  { key: 'actions', label: '', kind: 'text', width: 140, sort: false, filter: false, cell: (row) => <RowCommand command="reports.download" args={{ reportId: row.id }} /> },
];

const rowTone = (row: Row) => reportTone(Number(row.count), Number(row.leads_number));

/** The rule's daily reports, newest first: count against the day's cap, coloured by fill. */
export function ReportList({ ruleId, gridRef, onFocusChange, version }: Props) {
  const t = useT();
  const intl = useIntl();
  const format = useMemo(() => {
    const base = defaultFormatter(intl.locale);
    return (column: GridColumnSpec, value: unknown) =>
      column.key === 'zip' ? ((value as string[] | undefined)?.length ? (value as string[]).join(', ') : t('rules.zip.everywhere')) : base(column, value);
  }, [intl.locale, t]);
  const loader = useMemo(
    () => localLoader(async () => (await queryClient.fetchQuery(reportsQuery(ruleId))).data as (Report & Row)[], columns, (c, row) => format(c, row[c.key])),
    [ruleId, format],
  );
  useEffect(() => {
    if (version !== undefined) void gridRef.current?.refresh();
  }, [version, gridRef]);
  const columnLabel = useCallback((c: GridColumnSpec) => t(`reports.column.${c.key}`), [t]);
  const onSelectionChange = useCallback((info: GridSelectionInfo) => onFocusChange(info.focusedId), [onFocusChange]);
  const onOpen = useCallback((row: Row) => void runCommand('reports.download', { reportId: row.id }, 'hotkey'), []);
  return (
    <div className="lives-list">
      <div className="lives-bar">
        <CommandMenu menu="reports.actions" variant="toolbar" label={t('reports.actions')} className="lives-actions" />
      </div>
      <Grid
        queryKey={`reports|${ruleId}`}
        rowMenu={{ menu: 'reports.actions', label: t('reports.actions') }}
        loader={loader}
        label={t('reports.grid')}
        t={t}
        locale={intl.locale}
        columns={columns}
        columnLabel={columnLabel}
        format={format}
        rowTone={rowTone}
        handleRef={gridRef}
        selectable={false}
        onSelectionChange={onSelectionChange}
        onOpen={onOpen}
        className="lives-grid"
      />
    </div>
  );
}
