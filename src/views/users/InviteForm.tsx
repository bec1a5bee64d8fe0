import type { FormEvent, KeyboardEvent } from 'react';
import { Button, FieldError, Form, Input, Label, TextField } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { useCommand } from '../../commands/useCommand';
import { useT } from '../../i18n/provider';
import { inviteForm } from './store';

/** 'Créer un compte': name and email; the account receives an invitation to choose its password. */
export function InviteForm() {
  const t = useT();
  const form = useSnapshot(inviteForm);
  const invite = useCommand('users.invite', 'button');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void invite.run();
  };
  // Escape in a field gives the keys back to the tabs (then 1 or 2 switch).
  const backToTabs = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !(event.target as HTMLElement).matches('input')) return;
    event.preventDefault();
    document.querySelector<HTMLElement>('[data-users-tabs] [role=tab][aria-selected=true]')?.focus();
  };
  return (
    <div onKeyDown={backToTabs}>
    <Form className="admin-form" onSubmit={submit} validationErrors={form.errors} aria-labelledby="invite-title" data-invite-form="">
      <h2 id="invite-title">{t('users.tab.create')}</h2>
      <p className="muted">{t('users.invite.help')}</p>
      <TextField className="field" name="name" value={form.name} onChange={(v) => (inviteForm.name = v)} isRequired maxLength={200} autoComplete="off">
        <Label>{t('users.invite.name')}</Label>
        <Input />
        <FieldError className="admin-error" />
      </TextField>
      <TextField className="field" name="email" type="email" value={form.email} onChange={(v) => (inviteForm.email = v)} isRequired maxLength={254} autoComplete="off">
        <Label>{t('users.invite.email')}</Label>
        <Input />
        <FieldError className="admin-error" />
      </TextField>
      <Button type="submit" className="btn btn-primary" isDisabled={form.sending || !invite.enabled}>
        {t('users.invite.submit')}
      </Button>
    </Form>
    </div>
  );
}
