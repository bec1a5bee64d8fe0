import { QueryClientProvider } from '@tanstack/react-query';
import type { IntlShape } from '@formatjs/intl';
import { useEffect, useLayoutEffect } from 'react';
import { RouterProvider } from 'react-router';
import { useSnapshot } from 'valtio';
import { setSessionEndedHandler } from '../api/client';
import { useLiveConnection } from '../api/events/connection';
import { IntlProvider, useT } from '../i18n/provider';
import { closeSidebar, deviceFor, ui } from '../state/ui';
import { signOutLocally, userState } from '../state/user';
import { loginPath } from '../ui/returnTo';
import { toaster, Toasts } from '../ui/toasts';
import { queryClient } from '../api/queryClient';

// The routes (react-router, every screen's declaration and the contracts these name) are evaluated
// in a task of their own, after this module's (src/main.tsx).
const router = (await import('./router')).createRouter();

/** Resolves once the router has loaded the first page's lazy routes and can draw it in one commit. */
export const routerReady = new Promise<void>((ready) => {
  if (router.state.initialized) return ready();
  const stop = router.subscribe((state) => {
    if (!state.initialized) return;
    stop();
    ready();
  });
});

export function App({ intl }: { intl: IntlShape }) {
  return (
    <QueryClientProvider client={queryClient}>
      <IntlProvider initial={intl}>
        <UiEffects />
        <RouterProvider router={router} />
        <Toasts />
      </IntlProvider>
    </QueryClientProvider>
  );
}

/** Applies the kept preferences to the document and follows the window width and the session. */
function UiEffects() {
  const { theme, size } = useSnapshot(ui);
  const t = useT();
  useLiveConnection();

  // Before the screens' layout effects: the grid measures its font for the new size.
  useLayoutEffect(() => {
    document.documentElement.style.setProperty('--accent', theme);
    document.documentElement.dataset.size = size;
  }, [theme, size]);

  useEffect(() => {
    const follow = (first: boolean) => {
      const device = deviceFor(window.innerWidth);
      if (device === ui.device && !first) return;
      ui.device = device;
      if (device === 'mobile') closeSidebar(true);
    };
    follow(true);
    const onResize = () => follow(false);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  useEffect(() => {
    setSessionEndedHandler(() => {
      // Several requests may fail together: sign out and say so once. The visited views stay,
      // and signing in again returns to this page.
      if (!userState.token) return;
      const { pathname, search } = router.state.location;
      signOutLocally();
      queryClient.clear();
      toaster.warning(t('errors.tokenExpired'));
      void router.navigate(loginPath(pathname + search), { replace: true });
    });
  }, [t]);

  return null;
}
