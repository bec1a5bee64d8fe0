import { useMemo } from 'react';
import type { Customer } from '../../api/customers/contract';
import { useCustomers } from '../../api/customers/hooks';
import { customersQuery } from '../../api/customers/queries';
import { queryClient } from '../../api/queryClient';
import { useProvideCommandContext } from '../../commands/context';
import { runCommand } from '../../commands/registry';
import { defaultFormatter } from '../../grid/Grid';
import { localLoader } from '../../grid/localRows';
import type { GridColumnSpec, Row } from '../../grid/types';
import { useIntl, useT } from '../../i18n/provider';
import { formatCents } from '../../shared/money';
import { ListScreen, useListScreen, type ListGrid } from '../../ui/ListScreen';
import { BudgetBar } from './BudgetBar';
import { CustomerEditDialog } from './CustomerEditDialog';
import { CustomerForm } from './CustomerForm';
import { customerTabs, type CustomersCommandContext, type CustomerTab } from './store';

const columns: GridColumnSpec[] = [
  { key: 'name', label: '', kind: 'text', width: 240 },
  { key: 'email', label: '', kind: 'text', width: 260 },
  { key: 'rule_count', label: '', kind: 'number', width: 90 },
  // Month to date (Paris): sales minus credits, and the budget they use.
  { key: 'month_revenue_cents', label: '', kind: 'number', width: 130 },
  { key: 'budget', label: '', kind: 'number', width: 300, cell: (row) => <BudgetBar customer={row as unknown as Customer} /> },
  { key: 'state', label: '', kind: 'text', width: 110 },
  { key: 'webhook', label: '', kind: 'text', width: 220 },
  { key: 'webhook_state', label: '', kind: 'text', width: 130 },
];

const rowButtons = { args: (row: Row) => ({ customerId: row.id }), width: 320 };

const fetchRows = async (): Promise<Row[]> =>
  (await queryClient.fetchQuery(customersQuery)).map((c: Customer) => ({
    ...c,
    rule_count: c.rules.length,
    state: c.active ? 'active' : 'paused',
    webhook: c.webhook_url ?? '',
    webhook_state: c.webhook_paused_at ? 'paused' : '',
    // Sorted by the share of the budget used; no budget last.
    budget: c.monthly_budget_cents === null ? null : c.monthly_budget_cents > 0 ? c.month_revenue_cents / c.monthly_budget_cents : 1,
  }));

// Enter or a double click on a row: the customer's rules.
const onOpen = (row: Row) => void runCommand('customers.openRules', { customerId: row.id }, 'hotkey');

/** Customers (/customers): 'Listes des clients' by name and 'Créer un client' (?tab=create). */
export default function CustomersScreen() {
  const t = useT();
  const intl = useIntl();
  const customers = useCustomers();
  const format = useMemo(() => {
    const base = defaultFormatter(intl.locale);
    return (column: GridColumnSpec, value: unknown): string => {
      if (column.key === 'state') return t(`customers.state.${String(value)}`);
      if (column.key === 'webhook_state') return value ? t(`customers.webhook.${String(value)}`) : '';
      if (column.key === 'month_revenue_cents') return formatCents(Number(value), intl.locale);
      return base(column, value);
    };
  }, [intl.locale, t]);
  // Filters and sorting read the cells as shown ('En pause', not 'paused').
  const loader = useMemo(() => localLoader(fetchRows, columns, (column, row) => format(column, row[column.key])), [format]);
  const list = useListScreen<Customer, CustomerTab>({ tabs: customerTabs, loader, version: customers.data });
  const grid: ListGrid = useMemo(() => ({ queryKey: 'customers', columns, format, onOpen, rowButtons }), [format]);

  const { tab, showTab, focused, grid: gridHandle } = list;
  const ctx: CustomersCommandContext = useMemo(() => ({ tab, showTab, focused, grid: gridHandle }), [tab, showTab, focused, gridHandle]);
  useProvideCommandContext({ view: 'customers', customers: ctx });

  return (
    <ListScreen name="customers" title={t('shell.screen.customers')} list={list} grid={grid} panels={{ create: <CustomerForm /> }}>
      <CustomerEditDialog />
    </ListScreen>
  );
}
