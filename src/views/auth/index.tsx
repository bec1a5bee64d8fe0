import { useState, type FormEvent } from 'react';
import { Button, Form, Input, Label, TextField } from 'react-aria-components';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { useSnapshot } from 'valtio';
import { useLogin } from '../../api/auth/hooks';
import { useT } from '../../i18n/provider';
import { signIn, userState } from '../../state/user';
import { toaster } from '../../ui/toasts';
import '../../styles/auth.css';
import { returnPath } from '../../ui/returnTo';
import { SsoSignIn } from './SsoSignIn';

/** /login: email or username (trimmed), password and an optional code. */
export default function LoginScreen() {
  const t = useT();
  const navigate = useNavigate();
  const target = returnPath(useLocation().search);
  const { token } = useSnapshot(userState);
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');

  if (token && !login.isPending) return <Navigate to={target} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate(
      { email: email.trim(), password, ...(code.trim() ? { code: code.trim() } : {}) },
      {
        onSuccess: ({ token: newToken, user }) => {
          signIn(newToken, user);
          void navigate(target, { replace: true });
        },
        onError: () => toaster.error(t('auth.failed')),
      },
    );
  };

  return (
    <main className="login">
      <Form className="login-card" onSubmit={submit} aria-labelledby="login-title">
        <div className="login-brand" aria-hidden="true">
          LC
        </div>
        <h1 id="login-title">{t('auth.title')}</h1>
        <p className="login-subtitle">{t('auth.subtitle')}</p>
        <TextField className="field" value={email} onChange={setEmail} isRequired autoComplete="username" autoFocus>
          <Label>{t('auth.email')}</Label>
          <Input name="email" />
        </TextField>
        <TextField className="field" type="password" value={password} onChange={setPassword} isRequired autoComplete="current-password">
          <Label>{t('auth.password')}</Label>
          <Input name="password" />
        </TextField>
        <TextField className="field" value={code} onChange={setCode} autoComplete="one-time-code">
          <Label>{t('auth.code')}</Label>
          <Input name="code" />
        </TextField>
        <Button type="submit" className="btn btn-primary btn-block" isDisabled={login.isPending}>
          {t('auth.submit')}
        </Button>
        <SsoSignIn target={target} />
        <p className="login-links">
          <Link to="/password/forgot">{t('auth.forgot.link')}</Link>
        </p>
      </Form>
    </main>
  );
}
