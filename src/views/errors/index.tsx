import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { useT } from '../../i18n/provider';
import '../../styles/auth.css';

function ErrorPage({ code, title, text }: { code: string; title: string; text: string }) {
  const t = useT();
  // Reached by a redirect (an admin screen for a normal user, an unknown address): the focus
  // starts on the page, not on <body>.
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body) ref.current?.focus({ preventScroll: true });
  }, []);
  return (
    <main className="error-page" ref={ref} tabIndex={-1}>
      <p className="error-code" aria-hidden="true">
        {code}
      </p>
      <h1>{t(title)}</h1>
      <p>{t(text)}</p>
      <Link to="/" className="btn btn-primary">
        {t('errors.backHome')}
      </Link>
    </main>
  );
}

export const NotFound = () => <ErrorPage code="404" title="errors.notFound.title" text="errors.notFound.text" />;
export const Unauthorised = () => <ErrorPage code="401" title="errors.unauthorised.title" text="errors.unauthorised.text" />;
