// State of the customers screen shared by its components and its commands (customers.commands.ts).
import { proxy } from 'valtio';
import { customerUpdateRequest, type Customer, type CustomerUpdateRequest } from '../../api/customers/contract';
import type { GridHandle } from '../../grid/types';
import { centsToInput, parseEuros } from '../../shared/money';
import { ui } from '../../state/ui';

export const customerTabs = ['list', 'create'] as const;
export type CustomerTab = (typeof customerTabs)[number];

export type CustomerField = 'name' | 'email';
/** 'Créer un client' also takes the default price. */
export type CustomerCreateField = CustomerField | 'default_price_cents';

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
  /** Euros as typed; empty: 0. */
  default_price_cents: '',
  errors: {} as Partial<Record<CustomerCreateField, string>>,
  busy: false,
});

/** The creation's price, euros as typed → cents (empty: 0), or the field's error when it is no price. */
export function createPrice(typed: string): { cents: number } | { error: string } {
  const cents = parseEuros(typed) ?? 0;
  return cents <= 100_000_000 ? { cents } : { error: 'customers.form.error.price' };
}

/** Loose on purpose (the server decides): something@something.tld, no spaces. */
const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The form's own checks before anything is sent: i18n ids per field. */
export function checkCustomer(name: string, email: string): Partial<Record<CustomerField, string>> {
  const errors: Partial<Record<CustomerField, string>> = {};
  if (!name.trim()) errors.name = 'customers.form.error.name';
  if (!emailShape.test(email.trim())) errors.email = 'customers.form.error.email';
  return errors;
}

/** The fields of 'Modifier le client' (PATCH /api/customers/:id accepts these and a new webhook secret). */
export type CustomerEditField = CustomerField | 'webhook_url' | 'dedupe_days' | MoneyField;

/** The money settings (issue 26), typed in euros or as numbers. */
export const moneyFields = ['default_price_cents', 'monthly_budget_cents', 'return_days', 'max_return_rate'] as const;
export type MoneyField = (typeof moneyFields)[number];

export interface CustomerDraft {
  name: string;
  email: string;
  /** False pauses every rule of the customer. */
  active: boolean;
  /** Empty: no webhook, the leads go by mail only. */
  webhook_url: string;
  /** Days within which the customer never receives a person twice, as typed (0–365). */
  dedupe_days: string;
  /** Euros as typed ('12,50'). */
  default_price_cents: string;
  /** Euros as typed; empty: no budget. */
  monthly_budget_cents: string;
  /** Whole days (0–365); 0: no returns. */
  return_days: string;
  /** Percent; empty: no limit. */
  max_return_rate: string;
}

export const customerDraft = (c: Customer): CustomerDraft => ({
  name: c.name,
  email: c.email,
  active: c.active,
  webhook_url: c.webhook_url ?? '',
  dedupe_days: String(c.dedupe_days),
  default_price_cents: centsToInput(c.default_price_cents, ui.language),
  monthly_budget_cents: centsToInput(c.monthly_budget_cents, ui.language),
  return_days: String(c.return_days),
  max_return_rate: c.max_return_rate === null ? '' : String(c.max_return_rate),
});

/** 'Modifier le client': the customer being edited (null: closed), its draft and the signing key the server holds. */
export const customerEdit = proxy({
  id: null as number | null,
  draft: {
    name: '',
    email: '',
    active: true,
    webhook_url: '',
    dedupe_days: '30',
    default_price_cents: '',
    monthly_budget_cents: '',
    return_days: '7',
    max_return_rate: '',
  } as CustomerDraft,
  /** The webhook's signing key as last read from the server (null without webhook). */
  secret: null as string | null,
  errors: {} as Partial<Record<CustomerEditField, string>>,
  busy: false,
});

const editMessages: Record<CustomerEditField, string> = {
  name: 'customers.form.error.name',
  email: 'customers.form.error.email',
  webhook_url: 'customers.edit.error.webhook',
  dedupe_days: 'customers.form.error.dedupe',
  default_price_cents: 'customers.form.error.price',
  monthly_budget_cents: 'customers.form.error.budget',
  return_days: 'customers.form.error.returnDays',
  max_return_rate: 'customers.form.error.returnRate',
};

/**
 * The edit's checks, the server's own (the contract's schema), then the PATCH body: only the
 * fields that changed (an emptied webhook is `null`: no more webhook). Pure, unit-tested.
 */
export function checkCustomerEdit(
  draft: CustomerDraft,
  current: Customer,
): { errors: Partial<Record<CustomerEditField, string>>; payload: CustomerUpdateRequest | null } {
  const webhook = draft.webhook_url.trim() === '' ? null : draft.webhook_url.trim();
  const payload: CustomerUpdateRequest = {};
  if (draft.name.trim() !== current.name) payload.name = draft.name;
  if (draft.email.trim().toLowerCase() !== current.email.toLowerCase()) payload.email = draft.email;
  if (draft.active !== current.active) payload.active = draft.active;
  if (webhook !== current.webhook_url) payload.webhook_url = webhook;
  // As typed: a number the contract checks (0–365 whole days); anything else is refused below.
  const dedupe = /^\d+$/.test(draft.dedupe_days.trim()) ? Number(draft.dedupe_days.trim()) : NaN;
  if (dedupe !== current.dedupe_days) payload.dedupe_days = dedupe;
  // Euros typed → cents (an empty price is 0, an empty budget none); NaN is refused below.
  const price = parseEuros(draft.default_price_cents) ?? 0;
  if (price !== current.default_price_cents) payload.default_price_cents = price;
  const budget = parseEuros(draft.monthly_budget_cents);
  if (budget !== current.monthly_budget_cents) payload.monthly_budget_cents = budget;
  const returnDays = /^\d+$/.test(draft.return_days.trim()) ? Number(draft.return_days.trim()) : NaN;
  if (returnDays !== current.return_days) payload.return_days = returnDays;
  const rateText = draft.max_return_rate.trim().replace(',', '.').replace(/\s*%$/, '');
  const rate = rateText === '' ? null : /^\d+(\.\d+)?$/.test(rateText) ? Number(rateText) : NaN;
  if (rate !== current.max_return_rate) payload.max_return_rate = rate;
  const errors = { ...checkCustomer(draft.name, draft.email) } as Partial<Record<CustomerEditField, string>>;
  const parsed = customerUpdateRequest.safeParse(payload);
  if (!parsed.success) for (const issue of parsed.error.issues) errors[issue.path[0] as CustomerEditField] ??= editMessages[issue.path[0] as CustomerEditField];
  return Object.keys(errors).length ? { errors, payload: null } : { errors, payload };
}

/** The server's 422 `errors` ({ webhook_url: '…' }) on the edit's fields. */
export function customerServerErrors(errors: Readonly<Record<string, string>>): Partial<Record<CustomerEditField, string>> {
  const out: Partial<Record<CustomerEditField, string>> = {};
  for (const path of Object.keys(errors)) {
    const head = path.split('.')[0] as CustomerEditField;
    if (head in editMessages) out[head] = editMessages[head];
  }
  return out;
}
