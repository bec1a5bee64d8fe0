import { useCustomers } from '../../api/customers/hooks';
import { defineScreen } from '../../commands/screens';
import { useT } from '../../i18n/provider';

export const screen = defineScreen({
  id: 'rules',
  path: 'customers/rules/:customerId',
  // 0: the rules of every customer.
  params: { customerId: 'id0' },
  title: 'shell.screen.rules',
  parent: 'customers',
  requires: 'admin',
  entries: [{ params: { customerId: '0' }, menu: { group: 'lives', order: 2, label: 'shell.menu.rules' }, keys: ['g r'] }],
  useTitle: (params) => useCustomerRulesTitle(Number(params.customerId)),
  load: () => import('.'),
});

declare module '../../commands/screens' {
  interface ScreenRegistry {
    rules: typeof screen;
  }
}

/** 'Règles · Acme Énergie' for one customer's rules; the screen's own title for all of them. */
function useCustomerRulesTitle(customerId: number): string | undefined {
  const t = useT();
  const customers = useCustomers();
  const name = customerId > 0 ? customers.data?.find((c) => c.id === customerId)?.name : undefined;
  return name ? t('rules.titleOf', { name }) : undefined;
}
