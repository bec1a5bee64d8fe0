import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, FieldError, Form, Input, Label, TextField } from 'react-aria-components';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { useSnapshot } from 'valtio';
import { useLogin } from '../../api/auth/hooks';
import { ApiError } from '../../api/client';
import type { SignedIn } from '../../api/two-factor/requests';
import { useT } from '../../i18n/provider';
import { signIn, userState } from '../../state/user';
import { toaster } from '../../ui/toasts';
import '../../styles/auth.css';
import { returnPath } from '../../ui/returnTo';
import { usePrerendering } from './prerendering';
import { SsoSignIn } from './SsoSignIn';

// Prerendered with the button: every current browser has passkeys, and the page keeps its layout when the client takes over.
const passkeysSupported = () => typeof window === 'undefined' || 'PublicKeyCredential' in window;

/**
 * /login: email or username (trimmed) and password; then, for an account with a second factor, a
 * step asking for its code (app or recovery code) or its passkey. A passkey also signs in alone.
 */
export default function LoginScreen() {
  const t = useT();
  const navigate = useNavigate();
  const target = returnPath(useLocation().search);
  const { token } = useSnapshot(userState);
  const login = useLogin();
  const prerendering = usePrerendering();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  // Set once the password is right and the account asks for its second factor ('totp', 'passkey').
  const [methods, setMethods] = useState<string[] | null>(null);
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  // Each step starts in its first field: the password step's field is gone when the code step comes, and back.
  const step = methods ? 'code' : 'password';
  useEffect(() => (step === 'code' ? codeInput : emailInput).current?.focus(), [step]);

  if (token && !login.isPending && !passkeyBusy) return <Navigate to={target} replace />;

  const signedIn = ({ token: newToken, user, enrolment_required }: SignedIn['data']) => {
    signIn(newToken, user, enrolment_required === true);
    void navigate(target, { replace: true });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate(
      { email: email.trim(), password, ...(methods && code.trim() ? { code: code.trim() } : {}) },
      {
        onSuccess: signedIn,
        onError: (error) => {
          const failure = error instanceof ApiError ? error : null;
          if (failure?.code === 'code_required' || failure?.code === 'code_invalid') {
            setMethods(Array.isArray(failure.body?.methods) ? (failure.body.methods as string[]) : ['totp']);
            setCodeError(failure.code === 'code_invalid' ? t('auth.code.invalid') : null);
            setCode('');
          } else toaster.error(failure?.code === 'rate_limited' ? failure.message : t('auth.failed'));
        },
      },
    );
  };

  const signInByPasskey = async () => {
    setPasskeyBusy(true);
    try {
      // The WebAuthn client loads when a passkey is used, not with the sign-in page.
      const { signInWithPasskey } = await import('../../api/two-factor/requests');
      signedIn(await signInWithPasskey(methods ? { email: email.trim(), password } : undefined));
    } catch (error) {
      toaster.error(error instanceof ApiError ? error.message : t('auth.passkey.cancelled'));
    } finally {
      setPasskeyBusy(false);
    }
  };

  // 'Utiliser une clé d'accès': alone on the first step, as the second factor on the code step.
  const passkeyButton = passkeysSupported() ? (
    <Button className="btn btn-block" onPress={() => void signInByPasskey()} isDisabled={prerendering || passkeyBusy || login.isPending}>
      {t('auth.passkey')}
    </Button>
  ) : null;

  return (
    <main className="login">
      <Form className="login-card" onSubmit={submit} aria-labelledby="login-title">
        <div className="login-brand" aria-hidden="true">
          LC
        </div>
        <h1 id="login-title">{t('auth.title')}</h1>
        {methods ? (
          <>
            <p className="login-subtitle">{t(methods.includes('totp') ? 'auth.code.help' : 'auth.code.helpPasskey')}</p>
            <TextField
              className="field"
              value={code}
              onChange={(v) => {
                // The server's refusal goes with the next keystroke: an invalid field would keep the form from sending.
                setCode(v);
                setCodeError(null);
              }}
              isRequired={!methods.includes('passkey') || methods.includes('totp')}
              isInvalid={codeError !== null}
              autoComplete="one-time-code"
            >
              <Label>{t('auth.code')}</Label>
              <Input name="code" spellCheck={false} ref={codeInput} />
              <FieldError className="login-error">{codeError}</FieldError>
            </TextField>
            <Button type="submit" className="btn btn-primary btn-block" isDisabled={login.isPending || !code.trim()}>
              {t('auth.code.submit')}
            </Button>
            {methods.includes('passkey') ? passkeyButton : null}
            <p className="login-links">
              <Button
                className="link-button"
                onPress={() => {
                  setMethods(null);
                  setCode('');
                  setCodeError(null);
                }}
              >
                {t('auth.code.back')}
              </Button>
            </p>
          </>
        ) : (
          <>
            <p className="login-subtitle">{t('auth.subtitle')}</p>
            <TextField className="field" value={email} onChange={setEmail} isRequired isReadOnly={prerendering} autoComplete="username webauthn">
              <Label>{t('auth.email')}</Label>
              <Input name="email" ref={emailInput} />
            </TextField>
            <TextField
              className="field"
              type="password"
              value={password}
              onChange={setPassword}
              isRequired
              isReadOnly={prerendering}
              autoComplete="current-password"
            >
              <Label>{t('auth.password')}</Label>
              <Input name="password" />
            </TextField>
            <Button type="submit" className="btn btn-primary btn-block" isDisabled={prerendering || login.isPending}>
              {t('auth.submit')}
            </Button>
            {passkeyButton}
            <SsoSignIn target={target} />
            <p className="login-links">
              <Link to="/password/forgot">{t('auth.forgot.link')}</Link>
            </p>
          </>
        )}
      </Form>
    </main>
  );
}
