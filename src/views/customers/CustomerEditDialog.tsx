import type { FormEvent, KeyboardEvent } from 'react';
import { Button, Checkbox, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { CommandMenu } from '../../commands/CommandMenu';
import { runCommand } from '../../commands/registry';
import { useT } from '../../i18n/provider';
import { customerEdit, type CustomerEditField } from './store';

const labels: Record<CustomerEditField, string> = {
  name: 'customers.form.name',
  email: 'customers.form.email',
  webhook_url: 'customers.edit.webhook',
  dedupe_days: 'customers.edit.dedupe',
  default_price_cents: 'customers.edit.price',
  monthly_budget_cents: 'customers.edit.budget',
  return_days: 'customers.edit.returnDays',
  max_return_rate: 'customers.edit.returnRate',
};
/** Amounts and rates: a phone shows its number pad with a decimal mark. */
const decimal = new Set<CustomerEditField>(['default_price_cents', 'monthly_budget_cents', 'max_return_rate']);

/**
 * 'Modifier le client': name, delivery email, active (paused: none of its rules delivers), the
 * dedupe window (days within which it never receives a person twice), its money settings (default
 * price and monthly budget in euros, return window, return rate) and the webhook each delivered
 * lead is also posted to, with its signing key and a new one on demand.
 * Enter in a field saves (customers.save), Escape or Annuler closes without saving.
 */
export function CustomerEditDialog() {
  const t = useT();
  const edit = useSnapshot(customerEdit);
  const close = () => (customerEdit.id = null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void runCommand('customers.save', undefined, 'button');
  };
  // Several fields and the save button outside the form's own submit: Enter in a text field saves.
  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key === 'Enter' && (e.target as HTMLElement).matches('input[type=text], input[type=email], input[type=url], input[type=number]')) submit(e);
  };
  const field = (key: CustomerEditField, type: string, hint?: string) => {
    const error = edit.errors[key];
    const described = [error ? `customer-edit-${key}-error` : '', hint ? `customer-edit-${key}-hint` : ''].filter(Boolean).join(' ');
    return (
      <div className="field">
        <label htmlFor={`customer-edit-${key}`}>{t(labels[key])}</label>
        <input
          id={`customer-edit-${key}`}
          type={type}
          autoComplete="off"
          autoFocus={key === 'name'}
          value={edit.draft[key]}
          maxLength={type === 'number' ? undefined : key === 'webhook_url' ? 2000 : key === 'name' ? 200 : decimal.has(key) ? 20 : 254}
          {...(type === 'number' ? { min: 0, max: 365, step: 1 } : {})}
          {...(decimal.has(key) ? { inputMode: 'decimal' as const } : {})}
          placeholder={key === 'webhook_url' ? 'https://' : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={described || undefined}
          onChange={(e) => {
            customerEdit.draft[key] = e.target.value;
            if (customerEdit.errors[key]) customerEdit.errors = { ...customerEdit.errors, [key]: undefined };
          }}
        />
        {hint ? (
          <span id={`customer-edit-${key}-hint`} className="field-hint">
            {hint}
          </span>
        ) : null}
        {error ? (
          <span id={`customer-edit-${key}-error`} className="field-error">
            {t(error)}
          </span>
        ) : null}
      </div>
    );
  };
  return (
    <ModalOverlay isOpen={edit.id !== null} onOpenChange={(open) => !open && close()} isDismissable className="overlay">
      <Modal className="dialog">
        <Dialog className="dialog-body">
          <Heading slot="title" className="dialog-title">
            {t('customers.edit.title')}
          </Heading>
          <form className="form" onSubmit={submit} onKeyDown={onKeyDown} noValidate aria-label={t('customers.edit.title')}>
            {field('name', 'text')}
            {field('email', 'email', t('customers.edit.email.hint'))}
            <div className="field">
              <Checkbox
                className="check"
                isSelected={edit.draft.active}
                onChange={(on) => (customerEdit.draft.active = on)}
                aria-describedby="customer-edit-active-hint"
              >
                <span className="check-box" aria-hidden="true" />
                {t('customers.edit.active')}
              </Checkbox>
              <span id="customer-edit-active-hint" className="field-hint">
                {t('customers.edit.active.hint')}
              </span>
            </div>
            {field('dedupe_days', 'number', t('customers.edit.dedupe.hint'))}
            <fieldset className="field-group">
              <legend>{t('customers.edit.money')}</legend>
              {field('default_price_cents', 'text', t('customers.edit.price.hint'))}
              {field('monthly_budget_cents', 'text', t('customers.edit.budget.hint'))}
              {field('return_days', 'number', t('customers.edit.returnDays.hint'))}
              {field('max_return_rate', 'text', t('customers.edit.returnRate.hint'))}
            </fieldset>
            {field('webhook_url', 'url', t('customers.edit.webhook.hint'))}
            {edit.secret ? (
              <div className="field">
                <label htmlFor="customer-edit-secret">{t('customers.edit.secret')}</label>
                <div className="field-inline">
                  <input id="customer-edit-secret" type="text" readOnly value={edit.secret} className="field-mono" onFocus={(e) => e.currentTarget.select()} />
                  <CommandMenu menu="customers.webhook" variant="toolbar" label={t('customers.edit.secret')} className="form-actions" />
                </div>
                <span className="field-hint">{t('customers.edit.secret.hint')}</span>
              </div>
            ) : null}
            <div className="dialog-actions">
              <Button className="btn" onPress={close}>
                {t('customers.edit.cancel')}
              </Button>
              <CommandMenu menu="customers.editForm" variant="toolbar" label={t('customers.edit.title')} className="form-actions" />
            </div>
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
