import { useCustomers } from '../../api/customers/hooks';
import type { ScreenTitle } from '../../commands/screens';
import { useT } from '../../i18n/provider';

export const title: ScreenTitle = { screen: 'rules', useTitle: (params) => useCustomerRulesTitle(Number(params.customerId)) };

/** 'Règles · Acme Énergie' for one customer's rules; the screen's own title for all of them. */
function useCustomerRulesTitle(customerId: number): string | undefined {
  const t = useT();
  const customers = useCustomers();
  const name = customerId > 0 ? customers.data?.find((c) => c.id === customerId)?.name : undefined;
  return name ? t('rules.titleOf', { name }) : undefined;
}
