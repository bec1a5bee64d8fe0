import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, FieldError, Form, Input, Label, TextField } from 'react-aria-components';
import { Link, useNavigate } from 'react-router';
import { useLogin } from '../../api/auth/hooks';
import { checkPasswordLink, choosePassword } from '../../api/auth/requests';
import { ApiError } from '../../api/client';
import { newPassword } from '../../api/users/contract';
import { useT } from '../../i18n/provider';
import { signIn } from '../../state/user';
import { toaster } from '../../ui/toasts';
import '../../styles/auth.css';

/** The contract's bounds, so the page says what the server will ask before sending. */
const MIN_LENGTH = newPassword.minLength ?? 12;

/** The mailed link's token travels after '#', so it never reaches a server log or a Referer header. */
const linkToken = () => new URLSearchParams(location.hash.slice(1)).get('token') ?? '';

/** The page of an invitation or a reset link: choose and confirm a password, then signed in. */
export default function ChoosePasswordScreen() {
  const t = useT();
  const navigate = useNavigate();
  const [token] = useState(linkToken);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const link = useQuery({
    queryKey: ['password-link', token],
    queryFn: () => checkPasswordLink(token),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
  const login = useLogin();
  const save = useMutation({ mutationFn: () => choosePassword(token, password) });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password !== confirm || password.length < MIN_LENGTH) return;
    save.mutate(undefined, {
      // The new password signs the account in at once, as the sign-in form would.
      onSuccess: ({ data }) =>
        login.mutate(
          { email: data.email, password },
          {
            onSuccess: ({ token: session, user }) => {
              signIn(session, user);
              toaster.success(t('auth.choose.done'));
              void navigate('/', { replace: true });
            },
            onError: () => void navigate('/login', { replace: true }),
          },
        ),
    });
  };
  const saveError = save.error instanceof ApiError ? save.error : null;
  const serverField = saveError?.status === 422 ? ((saveError.body?.errors ?? {}) as Record<string, string>).password : undefined;
  // A link that no longer works (used, expired, replaced), said by the check or by the save.
  const dead = !token ? t('auth.choose.noToken') : link.error ? link.error.message : saveError && saveError.status !== 422 ? saveError.message : null;
  const info = link.data;

  return (
    <main className="login">
      <Form className="login-card" onSubmit={submit} aria-labelledby="choose-title" validationBehavior="aria">
        <div className="login-brand" aria-hidden="true">
          LC
        </div>
        <h1 id="choose-title">{info?.purpose === 'invite' ? t('auth.choose.welcome', { name: info.name }) : t('auth.choose.title')}</h1>
        {dead ? (
          <>
            <p role="alert" className="login-error">
              {dead}
            </p>
            <p className="login-links">
              <Link to="/password/forgot">{t('auth.choose.newLink')}</Link>
            </p>
          </>
        ) : !info ? (
          <p className="login-subtitle" role="status">
            {t('auth.choose.checking')}
          </p>
        ) : (
          <>
            <p className="login-subtitle">{t('auth.choose.help', { min: MIN_LENGTH, email: info.email })}</p>
            {/* The account's address, for password managers to file the new password under. */}
            <input type="email" name="username" autoComplete="username" value={info.email} readOnly hidden />
            <TextField
              className="field"
              type="password"
              value={password}
              onChange={setPassword}
              isRequired
              autoComplete="new-password"
              autoFocus
              isInvalid={serverField !== undefined || (password.length > 0 && password.length < MIN_LENGTH)}
            >
              <Label>{t('auth.choose.password')}</Label>
              <Input name="password" />
              <FieldError className="login-error">{serverField ?? t('auth.choose.tooShort', { min: MIN_LENGTH })}</FieldError>
            </TextField>
            <TextField
              className="field"
              type="password"
              value={confirm}
              onChange={setConfirm}
              isRequired
              autoComplete="new-password"
              isInvalid={confirm.length > 0 && confirm !== password}
            >
              <Label>{t('auth.choose.confirm')}</Label>
              <Input name="confirm" />
              <FieldError className="login-error">{t('auth.choose.mismatch')}</FieldError>
            </TextField>
            <Button type="submit" className="btn btn-primary btn-block" isDisabled={save.isPending || login.isPending}>
              {t('auth.choose.submit')}
            </Button>
          </>
        )}
      </Form>
    </main>
  );
}
