import { useCustomers } from '../../api/customers/hooks';
import type { ScreenTitle } from '../../commands/screens';
import { useT } from '../../i18n/provider';

export const title: ScreenTitle = { screen: 'statement', useTitle: (params) => useStatementTitle(Number(params.customerId)) };

/** 'Relevé de Dupont - Jean' once the customer's name is known. */
function useStatementTitle(customerId: number): string | undefined {
  const t = useT();
  const name = useCustomers().data?.find((c) => c.id === customerId)?.name;
  return name ? t('statement.of', { name }) : undefined;
}
