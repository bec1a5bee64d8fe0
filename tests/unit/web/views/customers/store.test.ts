// 'Modifier le client': the checks before sending (the contract's own), the PATCH body of only
// the fields changed (an emptied webhook removes it), and the server's refusals on their fields.
import { describe, expect, it } from 'vitest';
import { customerUpdateRequest, type Customer } from '../../../../../src/api/customers/contract';
import { checkCustomerEdit, createPrice, customerDraft, customerServerErrors } from '../../../../../src/views/customers/store';

const acme: Customer = {
  id: 3,
  name: 'Acme Énergie',
  email: 'leads@acme.fr',
  active: true,
  webhook_url: 'https://acme.fr/hook',
  dedupe_days: 30,
  webhook_secret: 's3cr3t',
  webhook_paused_at: null,
  default_price_cents: 1250,
  monthly_budget_cents: null,
  return_days: 7,
  max_return_rate: null,
  month_revenue_cents: 0,
  rules: [],
  created_at: '2026-01-01T00:00:00Z',
};

describe('checkCustomerEdit', () => {
  it('sends nothing when nothing changed', () => {
    expect(checkCustomerEdit(customerDraft(acme), acme)).toEqual({ errors: {}, payload: {} });
  });

  it('sends only the fields changed, as the contract takes them', () => {
    const { errors, payload } = checkCustomerEdit({ ...customerDraft(acme), name: 'Acme Sud', active: false }, acme);
    expect(errors).toEqual({});
    expect(payload).toEqual({ name: 'Acme Sud', active: false });
    expect(customerUpdateRequest.safeParse(payload).success).toBe(true);
  });

  it('removes the webhook when its address is emptied, and adds one typed', () => {
    expect(checkCustomerEdit({ ...customerDraft(acme), webhook_url: '  ' }, acme).payload).toEqual({ webhook_url: null });
    const none = { ...acme, webhook_url: null, webhook_secret: null };
    expect(checkCustomerEdit({ ...customerDraft(none), webhook_url: ' https://crm.example/leads ' }, none).payload).toEqual({
      webhook_url: 'https://crm.example/leads',
    });
  });

  it('takes an email that differs only by case as unchanged', () => {
    expect(checkCustomerEdit({ ...customerDraft(acme), email: 'LEADS@acme.fr' }, acme).payload).toEqual({});
  });

  it('refuses an empty name, a bad email and a webhook that is not http(s), field by field', () => {
    const { errors, payload } = checkCustomerEdit({ ...customerDraft(acme), name: ' ', email: 'acme', webhook_url: 'ftp://acme.fr/x' }, acme);
    expect(payload).toBeNull();
    expect(errors).toEqual({ name: 'customers.form.error.name', email: 'customers.form.error.email', webhook_url: 'customers.edit.error.webhook' });
    expect(checkCustomerEdit({ ...customerDraft(acme), webhook_url: 'pas une adresse' }, acme).errors).toEqual({ webhook_url: 'customers.edit.error.webhook' });
  });
});

describe('the dedupe window in the edit', () => {
  it('sends dedupe_days only when changed, as a number, and refuses what is not 0–365 whole days', () => {
    expect(checkCustomerEdit(customerDraft(acme), acme).payload).toEqual({});
    expect(checkCustomerEdit({ ...customerDraft(acme), dedupe_days: ' 0 ' }, acme).payload).toEqual({ dedupe_days: 0 });
    expect(checkCustomerEdit({ ...customerDraft(acme), dedupe_days: '365' }, acme).payload).toEqual({ dedupe_days: 365 });
    for (const typed of ['366', '-1', '1.5', '', 'trente'])
      expect(checkCustomerEdit({ ...customerDraft(acme), dedupe_days: typed }, acme)).toEqual({
        errors: { dedupe_days: 'customers.form.error.dedupe' },
        payload: null,
      });
    expect(customerServerErrors({ dedupe_days: 'x' })).toEqual({ dedupe_days: 'customers.form.error.dedupe' });
  });
});

describe('customerServerErrors', () => {
  it("puts a 422's paths on the edit's fields and ignores the others", () => {
    expect(customerServerErrors({ webhook_url: 'x', 'email.0': 'x', name: 'x', _: 'x' })).toEqual({
      webhook_url: 'customers.edit.error.webhook',
      email: 'customers.form.error.email',
      name: 'customers.form.error.name',
    });
  });
});

describe('the money settings in the edit', () => {
  it('sends euros typed as cents, an emptied budget or rate as none, and refuses what is not an amount', () => {
    expect(customerDraft(acme)).toMatchObject({
      default_price_cents: expect.stringMatching(/^12[.,]50$/),
      monthly_budget_cents: '',
      return_days: '7',
      max_return_rate: '',
    });
    expect(
      checkCustomerEdit(
        { ...customerDraft(acme), default_price_cents: '9,90', monthly_budget_cents: '1 500 €', return_days: '0', max_return_rate: '12,5 %' },
        acme,
      ).payload,
    ).toEqual({ default_price_cents: 990, monthly_budget_cents: 150_000, return_days: 0, max_return_rate: 12.5 });
    expect(checkCustomerEdit({ ...customerDraft(acme), default_price_cents: '' }, acme).payload).toEqual({ default_price_cents: 0 });
    const budgeted = { ...acme, monthly_budget_cents: 100_000, max_return_rate: 10 };
    expect(checkCustomerEdit({ ...customerDraft(budgeted), monthly_budget_cents: ' ', max_return_rate: '' }, budgeted).payload).toEqual({
      monthly_budget_cents: null,
      max_return_rate: null,
    });
    expect(
      checkCustomerEdit(
        { ...customerDraft(acme), default_price_cents: '-3', monthly_budget_cents: 'beaucoup', return_days: '400', max_return_rate: '101' },
        acme,
      ),
    ).toEqual({
      errors: {
        default_price_cents: 'customers.form.error.price',
        monthly_budget_cents: 'customers.form.error.budget',
        return_days: 'customers.form.error.returnDays',
        max_return_rate: 'customers.form.error.returnRate',
      },
      payload: null,
    });
  });
});

describe('the price in the creation form', () => {
  it('reads euros into cents, empty as 0, and refuses what is no price', () => {
    expect(createPrice('12,50')).toEqual({ cents: 1250 });
    expect(createPrice('')).toEqual({ cents: 0 });
    for (const typed of ['-2', 'gratuit', '1000000,01']) expect(createPrice(typed)).toEqual({ error: 'customers.form.error.price' });
  });
});
