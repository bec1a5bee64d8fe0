import { useCallback, useEffect, useMemo, type RefObject } from 'react';
import type { Customer } from '../../api/customers/contract';
import { customersQuery } from '../../api/customers/queries';
import { queryClient } from '../../api/queryClient';
import { CommandMenu } from '../../commands/CommandMenu';
import { RowCommand } from '../../commands/RowCommand';
import { runCommand } from '../../commands/registry';
import { defaultFormatter, Grid } from '../../grid/Grid';
import { localLoader } from '../../grid/localRows';
import type { GridColumnSpec, GridHandle, GridSelectionInfo, Row, RowId } from '../../grid/types';
import { useIntl, useT } from '../../i18n/provider';

interface Props {
  /** The customers as last fetched: when they change, the grid reads them again. */
  version: unknown;
  gridRef: RefObject<GridHandle | null>;
  onFocusChange: (id: RowId | undefined) => void;
  failed: boolean;
}

const columns: GridColumnSpec[] = [
  { key: 'name', label: '', kind: 'text', width: 240 },
  { key: 'email', label: '', kind: 'text', width: 260 },
  { key: 'rule_count', label: '', kind: 'number', width: 90 },
  { key: 'state', label: '', kind: 'text', width: 110 },
  { key: 'webhook', label: '', kind: 'text', width: 220 },
  {
    key: 'actions',
    label: '',
    kind: 'text',
    width: 240,
    sort: false,
    filter: false,
    cell: (row) => (
      <>
        <RowCommand command="customers.openRules" args={{ customerId: row.id }} />
        <RowCommand command="customers.edit" args={{ customerId: row.id }} />
      </>
    ),
  },
];

const fetchRows = async (): Promise<Row[]> =>
  (await queryClient.fetchQuery(customersQuery)).map((c: Customer) => ({
    id: c.id,
    name: c.name,
    email: c.email,
    rule_count: c.rules.length,
    state: c.active ? 'active' : 'paused',
    webhook: c.webhook_url ?? '',
  }));

/** 'Listes des clients': the customers by name; Enter, a double click or Règles opens a customer's rules. */
export function CustomerList({ version, gridRef, onFocusChange, failed }: Props) {
  const t = useT();
  const intl = useIntl();
  const format = useMemo(() => {
    const base = defaultFormatter(intl.locale);
    return (column: GridColumnSpec, value: unknown): string => (column.key === 'state' ? t(`customers.state.${String(value)}`) : base(column, value));
  }, [intl.locale, t]);
  // Filters and sorting read the cells as shown ('En pause', not 'paused').
  const loader = useMemo(() => localLoader(fetchRows, columns, (column, row) => format(column, row[column.key])), [format]);
  useEffect(() => {
    if (version !== undefined) void gridRef.current?.refresh();
  }, [version, gridRef]);
  const columnLabel = useCallback((c: GridColumnSpec) => t(`customers.column.${c.key}`), [t]);
  const onSelectionChange = useCallback((info: GridSelectionInfo) => onFocusChange(info.focusedId), [onFocusChange]);
  const onOpen = useCallback((row: Row) => void runCommand('customers.openRules', { customerId: row.id }, 'hotkey'), []);
  return (
    <div className="lives-list">
      <div className="lives-bar">
        <CommandMenu menu="customers.actions" variant="toolbar" label={t('customers.actions')} className="lives-actions" />
      </div>
      {failed ? (
        <p role="alert" className="lives-error">
          {t('customers.error.load')}
        </p>
      ) : null}
      <Grid
        queryKey="customers"
        rowMenu={{ menu: 'customers.actions', label: t('customers.actions') }}
        loader={loader}
        label={t('customers.grid')}
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
