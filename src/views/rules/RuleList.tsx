import { useCallback, useEffect, useMemo, type RefObject } from 'react';
import { queryClient } from '../../api/queryClient';
import { weekdays, type Rule, type Weekday } from '../../api/rules/contract';
import { useRulesToday } from '../../api/rules/hooks';
import { rulesQuery } from '../../api/rules/queries';
import { CommandMenu } from '../../commands/CommandMenu';
import { RowCommand } from '../../commands/RowCommand';
import { runCommand } from '../../commands/registry';
import { defaultFormatter, Grid, type Translate } from '../../grid/Grid';
import { localLoader } from '../../grid/localRows';
import type { GridColumnSpec, GridHandle, GridSelectionInfo, Row, RowId } from '../../grid/types';
import { useIntl, useT } from '../../i18n/provider';
import { FillBar } from './FillBar';
import { ruleFills } from './store';

interface Props {
  customerId: number;
  /** The rules as last fetched: when they change (a command, another tab), the grid reads them again. */
  version: unknown;
  gridRef: RefObject<GridHandle | null>;
  onFocusChange: (id: RowId | undefined) => void;
  failed: boolean;
}

const asRule = (row: Row) => row as unknown as Rule;

function columnsFor(customerId: number): GridColumnSpec[] {
  return [
    { key: 'name', label: '', kind: 'text', width: 180 },
    // Filtered on one customer, the column would repeat its name on every row.
    { key: 'customer_name', label: '', kind: 'text', width: 150, hidden: customerId !== 0 },
    // Today's fill comes first after the names: what the screen is watched for. Sorted by count / cap.
    { key: 'fill', label: '', kind: 'number', width: 150, cell: (row) => <FillBar ruleId={asRule(row).id} initial={asRule(row).today} /> },
    { key: 'leads_number', label: '', kind: 'number', width: 90 },
    { key: 'landings', label: '', kind: 'text', width: 180 },
    { key: 'zip', label: '', kind: 'text', width: 120 },
    { key: 'days', label: '', kind: 'text', width: 150 },
    { key: 'hours', label: '', kind: 'text', width: 110 },
    { key: 'state', label: '', kind: 'text', width: 110 },
    {
      key: 'actions',
      label: '',
      kind: 'text',
      width: 440,
      sort: false, filter: false,
      cell: (row) => (
        <>
          <RowCommand command="rules.openReports" args={{ ruleId: row.id }} />
          <RowCommand command="rules.edit" args={{ ruleId: row.id }} />
          {asRule(row).active ? <RowCommand command="rules.pause" args={{ ruleId: row.id }} /> : <RowCommand command="rules.resume" args={{ ruleId: row.id }} />}
          <RowCommand command="rules.delete" args={{ ruleId: row.id }} tone="danger" />
        </>
      ),
    },
  ];
}

/** A rule delivers when it is active and its customer is too. */
const stateOf = (r: Rule) => (!r.active ? 'paused' : r.customer_active ? 'active' : 'customerPaused');

const fillRatio = (f: Rule['today']) => (f.leads_number > 0 ? f.count / f.leads_number : 0);

/** Days as short names ('lun. mar. mer.'), or 'Tous les jours' / 'Du lundi au vendredi'. */
export function daysText(on: readonly Weekday[], t: Translate): string {
  if (on.length === 7) return t('rules.days.every');
  if (on.length === 5 && on.every((d) => d !== 'saturday' && d !== 'sunday')) return t('rules.days.workdays');
  if (on.length === 0) return t('rules.days.none');
  return on.map((d) => t(`rules.day.short.${d}`)).join(' ');
}

/** The tab 'Règles': the toolbar on the focused rule and the rules, each with today's fill. */
export function RuleList({ customerId, version, gridRef, onFocusChange, failed }: Props) {
  const t = useT();
  const intl = useIntl();
  const columns = useMemo(() => columnsFor(customerId), [customerId]);

  // Today's fills, asked every few seconds; the bars redraw themselves.
  const today = useRulesToday(customerId);
  useEffect(() => {
    if (today.data) ruleFills.byId = Object.fromEntries(today.data.data.map((f) => [f.id, f]));
  }, [today.data]);

  const format = useMemo(() => {
    const base = defaultFormatter(intl.locale);
    return (column: GridColumnSpec, value: unknown): string => {
      switch (column.key) {
        case 'landings':
          return ((value ?? []) as Rule['landings']).map((l) => l.name).join(', ');
        case 'zip':
          return (value as string[] | undefined)?.length ? (value as string[]).join(', ') : t('rules.zip.everywhere');
        case 'days':
          return daysText(String(value ?? '').split(',').filter(Boolean) as Weekday[], t);
        case 'hours': {
          const h = value as Rule['hours'] | undefined;
          return h ? `${h.start} – ${h.end}` : '';
        }
        case 'state':
          return t(`rules.state.${String(value)}`);
        case 'fill':
          return typeof value === 'number' ? intl.formatNumber(value, { style: 'percent' }) : '';
        default:
          return base(column, value);
      }
    };
  }, [intl, t]);

  const loader = useMemo(
    () =>
      localLoader(
        async () => (await queryClient.fetchQuery(rulesQuery(customerId))).map((r) => ({ ...r, days: weekdays.filter((d) => r[d]).join(','), fill: fillRatio(r.today), state: stateOf(r) }) as unknown as Row),
        columns,
        (column, row) => format(column, row[column.key]),
      ),
    [customerId, columns, format],
  );
  useEffect(() => {
    if (version !== undefined) void gridRef.current?.refresh();
  }, [version, gridRef]);
  const columnLabel = useCallback((c: GridColumnSpec) => t(`rules.column.${c.key}`), [t]);
  const onSelectionChange = useCallback((info: GridSelectionInfo) => onFocusChange(info.focusedId), [onFocusChange]);
  const onOpen = useCallback((row: Row) => void runCommand('rules.openReports', { ruleId: row.id }, 'hotkey'), []);

  return (
    <div className="lives-list">
      <div className="lives-bar">
        <CommandMenu menu="rules.actions" variant="toolbar" label={t('rules.actions')} className="lives-actions" />
      </div>
      {failed ? (
        <p role="alert" className="lives-error">
          {t('rules.error.load')}
        </p>
      ) : null}
      <Grid
        queryKey={`rules|${customerId}`}
        rowMenu={{ menu: 'rules.actions', label: t('rules.actions') }}
        loader={loader}
        label={t('rules.grid')}
        t={t}
        locale={intl.locale}
        columns={columns}
        columnLabel={columnLabel}
        format={format}
        handleRef={gridRef}
        selectable={false}
        onSelectionChange={onSelectionChange}
        onOpen={onOpen}
        className="lives-grid"
      />
    </div>
  );
}
