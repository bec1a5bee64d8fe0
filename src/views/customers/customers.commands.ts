/**
 * The customers screen's commands — the tabs, creating, editing, pausing and resuming a customer,
 * a new webhook secret, opening a customer's rules — and the palette's customers, each a jump to
 * its rules. The screen provides `ctx.customers`; a row's buttons pass their customer as `{ customerId }`.
 */
import { ApiError } from '../../api/client';
import type { Customer } from '../../api/customers/contract';
import { customersQuery } from '../../api/customers/queries';
import { createCustomer, updateCustomer } from '../../api/customers/requests';
import { fetchNow, queryClient } from '../../api/queryClient';
import { rulesKey } from '../../api/rules/queries';
import { resumeWebhook } from '../../api/webhooks/requests';
import type { CommandContext, ContextWith } from '../../commands/context';
import { definePaletteSource } from '../../commands/palette/sources';
import { LastChange } from '../../commands/lastChange';
import { defineCommand } from '../../commands/registry';
import {
  checkCustomer,
  checkCustomerEdit,
  createPrice,
  customerDraft,
  customerEdit,
  customerForm,
  customerServerErrors,
  customerTabs,
  type CustomersCommandContext,
} from './store';
import { hrefOf } from '../../commands/screens';

declare module '../../commands/registry' {
  interface MenuRegistry {
    'customers.actions': true;
    'customers.editForm': true;
    'customers.form': true;
    'customers.webhook': true;
  }
}

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
type OnScreen = ContextWith<'customers'>;
type CustomerArgs = { customerId: number } | undefined;
const onScreen = (ctx: CommandContext): ctx is OnScreen => ctx.customers !== undefined;

/** The customer a command acts on: its row's (a row's buttons pass it), or the focused one (toolbar, keys, palette). */
const customerOf = (ctx: CommandContext, args: CustomerArgs): Customer | undefined => {
  const id = args?.customerId ?? ctx.customers?.focused?.id;
  return id === undefined ? undefined : queryClient.getQueryData(customersQuery.queryKey)?.find((c) => c.id === id);
};
const hasCustomer = (ctx: CommandContext, args: CustomerArgs): ctx is OnScreen => onScreen(ctx) && customerOf(ctx, args) !== undefined;
/** The list shows the customer to act on. */
const onCustomer = (ctx: CommandContext, args: CustomerArgs): ctx is OnScreen => hasCustomer(ctx, args) && ctx.customers?.tab === 'list';

customerTabs.forEach((tab, i) => {
  defineCommand({
    id: `customers.tab.${tab}`,
    title: `customers.tab.${tab}`,
    section,
    scope,
    keys: [String(i + 1)],
    requires: 'admin',
    when: onScreen,
    run: (ctx) => ctx.customers.showTab(tab),
  });
});

// Enter or a double click on a row, its Règles button, the toolbar and the palette.
defineCommand<CustomerArgs, OnScreen>({
  id: 'customers.openRules',
  title: 'customers.openRules',
  section,
  scope,
  menus: [{ id: 'customers.actions', order: 1, tone: 'primary', inline: true }],
  requires: 'admin',
  when: hasCustomer,
  run: (ctx, args) => {
    const customer = customerOf(ctx, args);
    if (customer) ctx.navigate(hrefOf('rules', { customerId: customer.id }));
  },
});

// r, a row's Relevé button, the toolbar: the customer's statement of the current month.
defineCommand<CustomerArgs, OnScreen>({
  id: 'customers.openStatement',
  title: 'customers.openStatement',
  section,
  scope,
  keys: ['r'],
  menus: [{ id: 'customers.actions', order: 2, inline: true }],
  requires: 'admin',
  when: hasCustomer,
  run: (ctx, args) => {
    const customer = customerOf(ctx, args);
    if (customer) ctx.navigate(hrefOf('statement', { customerId: customer.id }));
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
  when: (ctx): ctx is OnScreen => onScreen(ctx) && ctx.customers.tab === 'create' && !customerForm.busy,
  run: async (ctx) => {
    const price = createPrice(customerForm.default_price_cents);
    const errors = { ...checkCustomer(customerForm.name, customerForm.email), ...('error' in price ? { default_price_cents: price.error } : {}) };
    customerForm.errors = errors;
    if (Object.keys(errors).length || 'error' in price) return ctx.toast.warning(ctx.t('customers.form.invalid'));
    customerForm.busy = true;
    try {
      await createCustomer({ name: customerForm.name.trim(), email: customerForm.email.trim(), default_price_cents: price.cents });
      customerForm.name = '';
      customerForm.email = '';
      customerForm.default_price_cents = '';
      // Ready for the next one.
      document.querySelector<HTMLElement>('[data-tab-entry="create"]')?.focus();
      ctx.toast.success(ctx.t('customers.toast.created'));
      await queryClient.invalidateQueries({ queryKey: customersQuery.queryKey });
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
          ...(fields.default_price_cents ? { default_price_cents: 'customers.form.error.price' } : {}),
        };
        return ctx.toast.warning(ctx.t('customers.form.invalid'));
      }
      throw new Error(ctx.t('customers.error.create'));
    } finally {
      customerForm.busy = false;
    }
  },
});

/** Customers, and the rules whose state follows their customer's. */
const reloadCustomers = () =>
  Promise.all([queryClient.invalidateQueries({ queryKey: customersQuery.queryKey }), queryClient.invalidateQueries({ queryKey: rulesKey })]);

// e, a row's Modifier button, the toolbar and the palette: the edit dialog on that customer.
defineCommand<CustomerArgs, OnScreen>({
  id: 'customers.edit',
  title: 'customers.edit',
  section,
  scope,
  keys: ['e'],
  menus: [{ id: 'customers.actions', order: 3, inline: true }],
  requires: 'admin',
  when: onCustomer,
  run: (ctx, args) => {
    const customer = customerOf(ctx, args);
    if (!customer) return;
    customerEdit.id = customer.id;
    customerEdit.draft = customerDraft(customer);
    customerEdit.secret = customer.webhook_secret;
    customerEdit.errors = {};
  },
});

/** Sends the changed fields; the dialog closes on success. A used email (409) or a refused field (422) shows by its field. */
defineCommand({
  id: 'customers.save',
  title: 'customers.save',
  section,
  scope,
  menus: [{ id: 'customers.editForm', order: 1, tone: 'primary' }],
  requires: 'admin',
  when: (ctx) => onScreen(ctx) && customerEdit.id !== null && !customerEdit.busy,
  run: async (ctx) => {
    const current = queryClient.getQueryData(customersQuery.queryKey)?.find((c) => c.id === customerEdit.id);
    if (!current) return;
    const { errors, payload } = checkCustomerEdit(customerEdit.draft, current);
    customerEdit.errors = errors;
    if (!payload) return ctx.toast.warning(ctx.t('customers.form.invalid'));
    if (Object.keys(payload).length === 0) return void (customerEdit.id = null);
    customerEdit.busy = true;
    try {
      await updateCustomer(current.id, payload);
      customerEdit.id = null;
      ctx.toast.success(ctx.t('customers.toast.updated'));
      await reloadCustomers();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status === 409) {
        customerEdit.errors = { email: 'customers.form.error.duplicate' };
        return ctx.toast.warning(ctx.t('customers.form.error.duplicate'));
      }
      if (error.status === 422) {
        customerEdit.errors = customerServerErrors((error.body?.errors ?? {}) as Record<string, string>);
        return ctx.toast.warning(ctx.t('customers.form.invalid'));
      }
      throw new Error(ctx.t('customers.error.action'), { cause: error });
    } finally {
      customerEdit.busy = false;
    }
  },
});

// A new signing key for the webhook: the old one stops working at once, so the dialog asks first.
defineCommand({
  id: 'customers.rotateSecret',
  title: 'customers.rotateSecret',
  section,
  scope,
  menus: [{ id: 'customers.webhook', order: 1 }],
  requires: 'admin',
  when: (ctx) => onScreen(ctx) && customerEdit.id !== null && customerEdit.secret !== null && !customerEdit.busy,
  confirm: { message: 'customers.rotateSecret.confirm', ok: 'customers.rotateSecret.ok' },
  run: async (ctx) => {
    const id = customerEdit.id!;
    const res = await updateCustomer(id, { rotate_webhook_secret: true }).catch((error: unknown) => {
      throw new Error(ctx.t('customers.error.action'), { cause: error });
    });
    if (customerEdit.id === id) customerEdit.secret = res.data.webhook_secret;
    ctx.toast.success(ctx.t('customers.toast.secret'));
    await reloadCustomers();
  },
});

/** The customer named (or the focused one) has its webhook paused. */
const webhookPaused = (ctx: CommandContext, args: CustomerArgs) => customerOf(ctx, args)?.webhook_paused_at != null;

// A webhook paused after 10 failures in a row: sent again, the deliveries kept meanwhile first.
defineCommand<CustomerArgs, OnScreen>({
  id: 'customers.resumeWebhook',
  title: 'customers.resumeWebhook',
  section,
  scope,
  // Shown for a customer whose webhook is paused only.
  menus: [{ id: 'customers.actions', group: 'webhook', order: 5, when: webhookPaused }],
  requires: 'admin',
  when: (ctx, args): ctx is OnScreen => onCustomer(ctx, args) && webhookPaused(ctx, args),
  run: async (ctx, args) => {
    const customer = customerOf(ctx, args);
    if (!customer) return;
    const res = await resumeWebhook(customer.id).catch(async (error: unknown) => {
      await reloadCustomers();
      throw new Error(ctx.t('customers.error.action'), { cause: error });
    });
    ctx.toast.success(ctx.t('customers.toast.webhookResumed', { name: customer.name, held: res.held }));
    await reloadCustomers();
  },
});

/** The last pause or resumption, which the toast's Annuler or `z` puts back once (one key pauses a customer). */
const lastState = new LastChange<{ id: number; active: boolean }>();

function activeCommand(id: 'customers.pause' | 'customers.resume', keys: string[], active: boolean, done: string, order: number) {
  defineCommand<CustomerArgs, OnScreen>({
    id,
    title: id,
    section,
    scope,
    keys,
    // The toolbar offers the one that applies to the focused customer; the palette and the keys both.
    menus: [{ id: 'customers.actions', group: 'state', order, when: (ctx) => ctx.customers?.focused?.active === !active }],
    requires: 'admin',
    when: onCustomer,
    run: async (ctx, args) => {
      const customer = customerOf(ctx, args);
      if (!customer) return;
      await lastState.record({ id: customer.id, active }, updateCustomer(customer.id, { active })).catch(async (error: unknown) => {
        await reloadCustomers();
        throw new Error(ctx.t('customers.error.action'), { cause: error });
      });
      ctx.toast.success(ctx.t(done, { name: customer.name }), { label: ctx.t('shell.toast.undo'), command: 'customers.undoState' });
      await reloadCustomers();
    },
  });
}

activeCommand('customers.pause', ['p'], false, 'customers.toast.paused', 4);
activeCommand('customers.resume', ['shift+p'], true, 'customers.toast.resumed', 5);

defineCommand({
  id: 'customers.undoState',
  title: 'customers.undoState',
  section,
  scope,
  keys: ['z'],
  requires: 'admin',
  when: (ctx) => onScreen(ctx) && lastState.known,
  run: async (ctx) => {
    const change = await lastState.take();
    if (!change) return;
    // Only while the customer is still as the change left it (someone may have changed it since),
    // read again: a z pressed at once would otherwise meet the list from before the change.
    const customer = (await fetchNow(customersQuery)).find((c) => c.id === change.id);
    if (customer?.active === change.active) {
      await updateCustomer(change.id, { active: !change.active }).catch(async (error: unknown) => {
        await reloadCustomers();
        throw new Error(ctx.t('customers.error.action'), { cause: error });
      });
    }
    ctx.toast.info(ctx.t('customers.toast.stateUndone', { name: customer?.name ?? '' }));
    await reloadCustomers();
    ctx.grid?.focus();
  },
});
