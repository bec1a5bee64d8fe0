/**
 * The customers screen's commands — the tabs, creating a customer, opening a customer's rules —
 * and the palette's customers, each a jump to its rules. The screen provides `ctx.customers`.
 */
import { ApiError } from '../../api/client';
import type { Customer } from '../../api/customers/contract';
import { customersQuery } from '../../api/customers/queries';
import { createCustomer } from '../../api/customers/requests';
import { queryClient } from '../../api/queryClient';
import type { CommandContext } from '../../commands/context';
import { definePaletteSource } from '../../commands/palette/sources';
import { defineCommand } from '../../commands/registry';
import { checkCustomer, customerForm, customerTabs, type CustomersCommandContext } from './store';

declare module '../../commands/context' {
  interface CommandContextExtensions {
    customers: CustomersCommandContext;
  }
}

definePaletteSource<Customer>({
  id: 'customers',
  order: 40,
  requires: 'admin',
  query: customersQuery,
  entries: (customers) =>
    customers.map((c) => ({
      key: String(c.id),
      label: c.name,
      hint: c.email,
      keywords: c.rules.map((r) => r.name).join(' '),
      command: 'nav.rules',
      args: { customerId: c.id },
    })),
});

const section = 'customers';
const scope = 'customers';
const onScreen = (ctx: CommandContext) => ctx.customers !== undefined;

customerTabs.forEach((tab, i) => {
  defineCommand({
    id: `customers.tab.${tab}`,
    title: `customers.tab.${tab}`,
    section,
    scope,
    keys: [String(i + 1)],
    requires: 'admin',
    when: onScreen,
    run: (ctx) => ctx.customers!.showTab(tab),
  });
});

// Enter or a double click on a row, its Règles button, the toolbar and the palette.
defineCommand<{ customerId: number } | undefined>({
  id: 'customers.openRules',
  title: 'customers.openRules',
  section,
  scope,
  menus: [{ id: 'customers.actions', order: 1, tone: 'primary' }],
  requires: 'admin',
  when: (ctx) => onScreen(ctx) && ctx.customers!.focused !== undefined,
  run: (ctx, args) => {
    const id = args?.customerId ?? ctx.customers!.focused!.id;
    ctx.navigate(`/customers/rules/${id}`);
  },
});

// Checks the form, then sends it: a refused field (422) or an email already used (409) is shown by its field.
defineCommand({
  id: 'customers.create',
  title: 'customers.create',
  section,
  scope,
  menus: [{ id: 'customers.form', order: 1, tone: 'primary' }],
  requires: 'admin',
  when: (ctx) => onScreen(ctx) && ctx.customers!.tab === 'create' && !customerForm.busy,
  run: async (ctx) => {
    const errors = checkCustomer(customerForm.name, customerForm.email);
    customerForm.errors = errors;
    if (Object.keys(errors).length) return ctx.toast.warning(ctx.t('customers.form.invalid'));
    customerForm.busy = true;
    try {
      await createCustomer({ name: customerForm.name.trim(), email: customerForm.email.trim() });
      customerForm.name = '';
      customerForm.email = '';
      // Ready for the next one.
      document.querySelector<HTMLElement>('[data-tab-entry="create"]')?.focus();
      ctx.toast.success(ctx.t('customers.toast.created'));
      await queryClient.invalidateQueries({ queryKey: customersQuery.queryKey });
      await ctx.customers?.grid()?.refresh();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status === 409) {
        customerForm.errors = { email: 'customers.form.error.duplicate' };
        return ctx.toast.warning(ctx.t('customers.form.error.duplicate'));
      }
      if (error.status === 422) {
        const fields = (error.body?.errors ?? {}) as Record<string, string>;
        customerForm.errors = {
          ...(fields.name ? { name: 'customers.form.error.name' } : {}),
          ...(fields.email ? { email: 'customers.form.error.email' } : {}),
        };
        return ctx.toast.warning(ctx.t('customers.form.invalid'));
      }
      throw new Error(ctx.t('customers.error.create'));
    } finally {
      customerForm.busy = false;
    }
  },
});
