import type { FormEvent } from 'react';
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
  return (
    <Form className="admin-form" onSubmit={submit} validationErrors={form.errors} aria-labelledby="invite-title" data-invite-form="">
      <h2 id="invite-title">{t('users.tab.create')}</h2>
      <p className="muted">{t('users.invite.help')}</p>
      <TextField className="field" name="name" value={form.name} onChange={(v) => (inviteForm.name = v)} isRequired maxLength={200} autoComplete="off">
        <Label>{t('users.invite.name')}</Label>
        <Input data-tab-entry="create" />
        <FieldError className="admin-error" />
      </TextField>
      <TextField
        className="field"
        name="email"
        type="email"
        value={form.email}
        onChange={(v) => (inviteForm.email = v)}
        isRequired
        maxLength={254}
        autoComplete="off"
      >
        <Label>{t('users.invite.email')}</Label>
        <Input />
        <FieldError className="admin-error" />
      </TextField>
      <Button type="submit" className="btn btn-primary" isDisabled={form.sending || !invite.enabled}>
        {t('users.invite.submit')}
      </Button>
    </Form>
  );
}
