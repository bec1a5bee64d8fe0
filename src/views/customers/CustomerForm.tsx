import { useEffect, useRef, type FormEvent, type KeyboardEvent } from 'react';
import { useSnapshot } from 'valtio';
import { CommandMenu } from '../../commands/CommandMenu';
import { runCommand } from '../../commands/registry';
import { useT } from '../../i18n/provider';
import { customerForm, type CustomerCreateField } from './store';

/** 'Créer un client': 'Nom - Prénom', Email, the default price in euros (empty: 0) and Créer (Enter in a field creates too). */
export function CustomerForm() {
  const t = useT();
  const form = useSnapshot(customerForm);
  const nameRef = useRef<HTMLInputElement>(null);
  // Opened by its key or a route, the form takes the focus: it has nowhere else to be.
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body || active.id === 'main') nameRef.current?.focus();
  }, []);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void runCommand('customers.create', undefined, 'button');
  };
  // Two fields and no submit button: Enter would not submit the form by itself (Escape: ListScreen).
  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key === 'Enter' && (e.target as HTMLElement).matches('input')) submit(e);
  };
  const field = (key: CustomerCreateField, type: string, autoComplete: string) => {
    const error = form.errors[key];
    return (
      <div className="field">
        <label htmlFor={`customer-${key}`}>{t(key === 'default_price_cents' ? 'customers.edit.price' : `customers.form.${key}`)}</label>
        <input
          ref={key === 'name' ? nameRef : undefined}
          data-tab-entry={key === 'name' ? 'create' : undefined}
          id={`customer-${key}`}
          type={type}
          autoComplete={autoComplete}
          value={form[key]}
          maxLength={key === 'name' ? 200 : key === 'default_price_cents' ? 20 : 254}
          required={key !== 'default_price_cents'}
          inputMode={key === 'default_price_cents' ? 'decimal' : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `customer-${key}-error` : undefined}
          onChange={(e) => {
            customerForm[key] = e.target.value;
            if (customerForm.errors[key]) customerForm.errors = { ...customerForm.errors, [key]: undefined };
          }}
        />
        {error ? (
          <span id={`customer-${key}-error`} className="field-error">
            {t(error)}
          </span>
        ) : null}
      </div>
    );
  };
  return (
    <form className="form" onSubmit={submit} onKeyDown={onKeyDown} noValidate aria-labelledby="customer-form-title">
      <h2 id="customer-form-title" className="form-title">
        {t('customers.tab.create')}
      </h2>
      {field('name', 'text', 'off')}
      {field('email', 'email', 'off')}
      {field('default_price_cents', 'text', 'off')}
      <CommandMenu menu="customers.form" variant="toolbar" label={t('customers.tab.create')} className="list-actions" />
    </form>
  );
}
