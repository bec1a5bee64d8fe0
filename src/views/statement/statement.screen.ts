import { customersQuery } from '../../api/customers/queries';
import { useSignedInQuery } from '../../api/signedIn';
import { defineScreen } from '../../commands/screens';
import { useT } from '../../i18n/provider';

export const screen = defineScreen({
  id: 'statement',
  path: 'customers/releve/:customerId',
  params: { customerId: 'id' },
  title: 'shell.screen.statement',
  parent: 'customers',
  requires: 'admin',
  // Reached from a customer (its row, the palette's 'Relevé de …'), never without one.
  entries: [],
  useTitle: (params) => useStatementTitle(Number(params.customerId)),
  load: () => import('.'),
});

declare module '../../commands/screens' {
  interface ScreenRegistry {
    statement: typeof screen;
  }
}

/** 'Relevé de Dupont - Jean' once the customer's name is known. */
function useStatementTitle(customerId: number): string | undefined {
  const t = useT();
  const name = useSignedInQuery(customersQuery).data?.find((c) => c.id === customerId)?.name;
  return name ? t('statement.of', { name }) : undefined;
}
