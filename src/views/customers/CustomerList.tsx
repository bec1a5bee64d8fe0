import { useCallback, useMemo, type RefObject } from 'react';
import type { Customer } from '../../api/customers/contract';
import { customersQuery } from '../../api/customers/queries';
import { queryClient } from '../../api/queryClient';
import { CommandMenu } from '../../commands/CommandMenu';
import { RowCommand } from '../../commands/RowCommand';
import { runCommand } from '../../commands/registry';
import { Grid } from '../../grid/Grid';
import { localLoader } from '../../grid/localRows';
import type { GridColumnSpec, GridHandle, GridSelectionInfo, Row, RowId } from '../../grid/types';
import { useIntl, useT } from '../../i18n/provider';

interface Props {
  gridRef: RefObject<GridHandle | null>;
  onFocusChange: (id: RowId | undefined) => void;
  failed: boolean;
}

const columns: GridColumnSpec[] = [
  { key: 'name', label: '', kind: 'text', width: 260 },
  { key: 'email', label: '', kind: 'text', width: 280 },
  { key: 'rule_count', label: '', kind: 'number', width: 90 },
  { key: 'actions', label: '', kind: 'text', width: 130, sort: false, filter: false, cell: (row) => <RowCommand command="customers.openRules" args={{ customerId: row.id }} /> },
];

const fetchRows = async (): Promise<Row[]> =>
  (await queryClient.fetchQuery(customersQuery)).map((c: Customer) => ({ id: c.id, name: c.name, email: c.email, rule_count: c.rules.length }));

/** 'Listes des clients': the customers by name; Enter, a double click or Règles opens a customer's rules. */
export function CustomerList({ gridRef, onFocusChange, failed }: Props) {
  const t = useT();
  const intl = useIntl();
  const loader = useMemo(() => localLoader(fetchRows, columns), []);
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
        loader={loader}
        label={t('customers.grid')}
        t={t}
        locale={intl.locale}
        columns={columns}
        columnLabel={columnLabel}
        handleRef={gridRef}
        onSelectionChange={onSelectionChange}
        onOpen={onOpen}
        className="lives-grid"
      />
    </div>
  );
}
