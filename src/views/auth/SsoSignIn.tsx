import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ssoFailures } from '../../api/sso/contract';
import { exchangeSsoCode, fetchAuthMethods, ssoStartPath } from '../../api/sso/requests';
import { useT } from '../../i18n/provider';
import { signIn } from '../../state/user';

/**
 * The sign-in page's single sign-on: the 'Se connecter avec …' link when the server has a provider,
 * the exchange of the one-time code the provider's return brings (`?sso=`), and why it failed (`?sso_error=`).
 */
export function SsoSignIn({ target }: { target: string }) {
  const t = useT();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const methods = useQuery({ queryKey: ['auth-methods'], queryFn: fetchAuthMethods, staleTime: Infinity });
  const code = search.get('sso');
  const reason = search.get('sso_error');
  const [failed, setFailed] = useState(false);
  const exchanged = useRef<string | null>(null);

  useEffect(() => {
    if (!code || exchanged.current === code) return;
    exchanged.current = code;
    // The code leaves the address bar at once: it is single use, and history keeps addresses.
    setSearch({}, { replace: true });
    exchangeSsoCode(code).then(
      ({ token, user }) => {
        signIn(token, user);
        void navigate(target, { replace: true });
      },
      () => setFailed(true),
    );
  }, [code, setSearch, navigate, target]);

  const known = (ssoFailures as readonly string[]).includes(reason ?? '') ? reason : 'failed';
  const message = failed ? t('auth.sso.error.code') : reason !== null ? t(`auth.sso.error.${known}`) : null;
  const oidc = methods.data?.oidc;
  return (
    <>
      {message ? (
        <p className="login-error" role="alert">
          {message}
        </p>
      ) : null}
      {oidc ? (
        <>
          <p className="login-or">{t('auth.sso.or')}</p>
          <a className="btn btn-block login-sso" href={ssoStartPath}>
            {t('auth.sso.with', { label: oidc.label })}
          </a>
        </>
      ) : null}
    </>
  );
}
