import { useEffect, useMemo } from 'react';
import { Button } from 'react-aria-components';
import { Navigate, Outlet, useLocation, useNavigate, useParams, type Params } from 'react-router';
import { useSnapshot } from 'valtio';
import { useMe } from '../../api/auth/hooks';
import { mayOpen, useCurrentScreen, type Screen } from '../../commands/screens';
import { ConfirmHost } from '../../commands/ConfirmHost';
import { useProvideCommandContext } from '../../commands/context';
import { HelpOverlay } from '../../commands/HelpOverlay';
import { installHotkeys } from '../../commands/hotkeys';
import { Palette } from '../../commands/palette/Palette';
import { setFailureReporter } from '../../commands/registry';
import { SequenceHint } from '../../commands/SequenceHint';
import { useT } from '../../i18n/provider';
import { addErrorLog, addVisitedView, closeSidebar, ui } from '../../state/ui';
import { setUserData, userState } from '../../state/user';
import '../../styles/shell.css';
import { loginPath } from '../../ui/returnTo';
import { ErrorBoundary } from './ErrorBoundary';
import { EnrolmentRequired } from './EnrolmentRequired';
import { ErrorLogDialog } from './ErrorLogDialog';
import { installFocusRescue } from './focusRescue';
import { Navbar } from './Navbar';
import { Sidebar } from './Sidebar';
import { TagsView } from './TagsView';
import { TwoFactorDialog } from './TwoFactorDialog';
import { toaster } from '../../ui/toasts';
import { useScreenTitle, useTitleKey } from './useScreenTitle';

/** Every screen but /login, /404 and /401 needs the Admin-Token cookie. */
export default function Layout() {
  const { token } = useSnapshot(userState);
  const { pathname, search } = useLocation();
  if (!token) return <Navigate to={loginPath(pathname + search)} replace />;
  return <Shell />;
}

function Shell() {
  const t = useT();
  const me = useMe();
  const { userData, enrolmentRequired } = useSnapshot(userState);
  const { sidebar, device } = useSnapshot(ui);
  const location = useLocation();
  const navigate = useNavigate();
  const params = useParams();
  const screen = useCurrentScreen();
  const paramsKey = JSON.stringify(params);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- same parameters, same object: the command context stays equal
  const stableParams = useMemo(() => params, [paramsKey]);
  const titleKey = useTitleKey(screen);

  useEffect(() => {
    if (me.data) setUserData(me.data);
  }, [me.data]);

  useProvideCommandContext({
    user: (userData as typeof userState.userData) ?? null,
    view: screen?.id ?? 'none',
    path: location.pathname,
    params: stableParams,
    navigate: navigate as (to: string, opts?: { replace?: boolean }) => void,
    t,
    toast: toaster,
  });

  useEffect(() => installHotkeys(), []);
  useEffect(() => {
    setFailureReporter((error, command, ctx) => {
      const message = error instanceof Error ? error.message : String(error);
      addErrorLog({ source: 'command', message: `${command.id}: ${message}`, stack: error instanceof Error ? error.stack : undefined });
      ctx.toast.error(message || ctx.t('errors.generic'));
    });
  }, []);

  // A tag only for a screen the user may open: a normal user's bookmark of an admin screen leaves none.
  useEffect(() => {
    if (screen && mayOpen(screen, userData)) addVisitedView(location.pathname);
  }, [screen, location.pathname, userData]);

  // After a route change the focus goes to the new screen's main region, unless something in it
  // (its grid, as it mounts) has it already: never left on <body> or on what the old screen was.
  useEffect(() => {
    const main = document.getElementById('main');
    if (main && !main.contains(document.activeElement)) main.focus({ preventScroll: true });
  }, [location.pathname]);

  // Focus that falls to <body> (its element went away or disabled itself) goes on in the screen.
  useEffect(() => installFocusRescue(), []);

  if (screen?.requires === 'admin' && userData && !userData.admin) return <Navigate to="/401" replace />;

  const mobile = device === 'mobile';
  return (
    <div className={`app ${mobile ? 'mobile' : 'desktop'}${sidebar.opened ? ' sidebar-open' : ' sidebar-closed'}`}>
      <a href="#main" className="skip-link">
        {t('shell.skip')}
      </a>
      <Sidebar />
      {mobile && sidebar.opened ? <div className="drawer-backdrop" aria-hidden="true" onClick={() => closeSidebar(false)} /> : null}
      <div className="main-container">
        <header className="header">
          <Navbar />
          <TagsView />
        </header>
        <main id="main" className="app-main" key={location.pathname} tabIndex={-1}>
          <ErrorBoundary
            fallback={(retry) => (
              <section className="placeholder" role="alert">
                <h1>{t('errors.render.title')}</h1>
                <p>{t('errors.render.text')}</p>
                <Button className="btn btn-primary" onPress={retry}>
                  {t('errors.render.retry')}
                </Button>
              </section>
            )}
          >
            {/* A screen waits for the user's record: an admin screen mounted before its role was
                known (a bookmark, a reload) queried the API and met a 403 before going to /401,
                and the toolbars of the others, made of the commands this user may run, came in
                after their lists and moved them down the page (a layout shift of up to 0.44). */}
            {enrolmentRequired ? (
              <EnrolmentRequired />
            ) : !userData && me.isError && screen?.requires === 'admin' ? (
              <section className="placeholder" role="alert">
                <h1>{t('shell.meFailed')}</h1>
                <p>{me.error.message}</p>
                <Button className="btn btn-primary" onPress={() => void me.refetch()}>
                  {t('errors.render.retry')}
                </Button>
              </section>
            ) : !userData && (screen?.requires === 'admin' || !me.isError) ? (
              <p className="placeholder">{t('grid.loading')}</p>
            ) : (
              <Outlet />
            )}
          </ErrorBoundary>
        </main>
      </div>
      <WindowTitle key={titleKey} screen={screen} params={params} />
      <Palette />
      <HelpOverlay />
      <ConfirmHost />
      <ErrorLogDialog />
      <TwoFactorDialog />
      <SequenceHint />
    </div>
  );
}

/** The window's title follows the screen's (keyed by useTitleKey). */
function WindowTitle({ screen, params }: { screen: Screen | undefined; params: Params }) {
  const t = useT();
  const title = useScreenTitle(screen, params);
  useEffect(() => {
    document.title = title ? `${title} · ${t('shell.brand')}` : t('shell.brand');
  }, [title, t]);
  return null;
}
