// State of the customers screen shared by its components and its commands (customers.commands.ts).
import { proxy } from 'valtio';
import type { Customer } from '../../api/customers/contract';
import type { GridHandle } from '../../grid/types';

export const customerTabs = ['list', 'create'] as const;
export type CustomerTab = (typeof customerTabs)[number];

export type CustomerField = 'name' | 'email';

/** What the customer commands see of the mounted screen (CommandContext.customers). */
export interface CustomersCommandContext {
  tab: CustomerTab;
  /** Shows a tab and takes the focus into it. */
  showTab: (tab: CustomerTab) => void;
  /** The customer under the grid's focus. */
  focused: Customer | undefined;
  grid: () => GridHandle | null;
}

/** The 'Créer un client' form, kept while the user switches tabs; `errors` holds i18n ids. */
export const customerForm = proxy({
  name: '',
  email: '',
  errors: {} as Partial<Record<CustomerField, string>>,
  busy: false,
});

/** Loose on purpose (the server decides): something@something.tld, no spaces. */
const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The form's own checks before anything is sent: i18n ids per field. */
export function checkCustomer(name: string, email: string): Partial<Record<CustomerField, string>> {
  const errors: Partial<Record<CustomerField, string>> = {};
  if (!name.trim()) errors.name = 'customers.form.error.name';
  if (!emailShape.test(email.trim())) errors.email = 'customers.form.error.email';
  return errors;
}
