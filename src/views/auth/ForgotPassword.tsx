import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Form, Input, Label, TextField } from 'react-aria-components';
import { Link } from 'react-router';
import { requestPasswordReset } from '../../api/auth/requests';
import { ApiError } from '../../api/client';
import { useT } from '../../i18n/provider';
import '../../styles/auth.css';

/**
 * 'Mot de passe oublié ?': the address, then the same answer whether it has an account or not
 * (nobody learns from this page who has an account).
 */
export default function ForgotPasswordScreen() {
  const t = useT();
  const [email, setEmail] = useState('');
  const send = useMutation({ mutationFn: (address: string) => requestPasswordReset(address) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate(email.trim());
  };
  // A refused address (malformed, too many requests) is said; anything else gets the neutral answer.
  const refusal = send.error instanceof ApiError && (send.error.status === 422 || send.error.status === 429) ? send.error.message : null;
  const done = send.isSuccess || (send.isError && !refusal);

  return (
    <main className="login">
      <Form className="login-card" onSubmit={submit} aria-labelledby="forgot-title">
        <div className="login-brand" aria-hidden="true">
          LC
        </div>
        <h1 id="forgot-title">{t('auth.forgot.title')}</h1>
        {done ? (
          <p role="status" className="login-subtitle">
            {t('auth.forgot.sent')}
          </p>
        ) : (
          <>
            <p className="login-subtitle">{t('auth.forgot.help')}</p>
            <TextField className="field" type="email" value={email} onChange={setEmail} isRequired autoComplete="email" autoFocus>
              <Label>{t('auth.forgot.email')}</Label>
              <Input name="email" />
            </TextField>
            {refusal ? (
              <p role="alert" className="login-error">
                {refusal}
              </p>
            ) : null}
            <Button type="submit" className="btn btn-primary btn-block" isDisabled={send.isPending}>
              {t('auth.forgot.submit')}
            </Button>
          </>
        )}
        <p className="login-links">
          <Link to="/login">{t('auth.backToLogin')}</Link>
        </p>
      </Form>
    </main>
  );
}
