/** The customers screen's commands and the palette's customers, each a jump to its rules. */
import { api } from '../../api/client';
import { definePaletteSource } from '../../commands/palette/sources';

interface CustomerRef {
  id: number;
  name: string;
  email: string;
}

definePaletteSource({
  id: 'customers',
  order: 40,
  requires: 'admin',
  query: { queryKey: ['customers'], queryFn: () => api<CustomerRef[]>('/customers') },
  entries: (customers) => customers.map((c) => ({ key: String(c.id), label: c.name, hint: c.email, command: 'nav.rules', args: { customerId: c.id } })),
});
