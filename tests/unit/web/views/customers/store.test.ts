// 'Modifier le client': the checks before sending (the contract's own), the PATCH body of only
// the fields changed (an emptied webhook removes it), and the server's refusals on their fields.
import { describe, expect, it } from 'vitest';
import { customerUpdateRequest, type Customer } from '../../../../../src/api/customers/contract';
import { checkCustomerEdit, customerDraft, customerServerErrors } from '../../../../../src/views/customers/store';

const acme: Customer = {
  id: 3,
  name: 'Acme Énergie',
  email: 'leads@acme.fr',
  active: true,
  webhook_url: 'https://acme.fr/hook',
  webhook_secret: 's3cr3t',
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
    const { errors, payload } = checkCustomerEdit({ name: ' ', email: 'acme', active: true, webhook_url: 'ftp://acme.fr/x' }, acme);
    expect(payload).toBeNull();
    expect(errors).toEqual({ name: 'customers.form.error.name', email: 'customers.form.error.email', webhook_url: 'customers.edit.error.webhook' });
    expect(checkCustomerEdit({ ...customerDraft(acme), webhook_url: 'pas une adresse' }, acme).errors).toEqual({ webhook_url: 'customers.edit.error.webhook' });
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
