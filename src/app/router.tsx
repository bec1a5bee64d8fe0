import { useEffect } from 'react';
import { createBrowserRouter, Navigate, useParams, type RouteObject } from 'react-router';
import { paramsValid, publicPageTitle, type PublicScreen, type Screen, type ScreenHandle } from '../commands/screens';
import { useT } from '../i18n/provider';
import { RedirectBack } from './RedirectBack';
import { allScreens, publicScreens } from './screens';

/** A screen's route: parameters it cannot show (/production/xyz, /exports/abc) go to the 404 page. */
function screenRoute(screen: Screen): RouteObject {
  return {
    ...(screen.path === '' ? { index: true } : { path: screen.path }),
    handle: { screen } satisfies ScreenHandle,
    lazy: async () => {
      const { default: View } = await screen.load();
      return {
        Component: function ScreenRoute() {
          const params = useParams();
          return paramsValid(screen, params) ? <View /> : <Navigate to="/404" replace />;
        },
      };
    },
  };
}

/** A page open without signing in, outside the shell, with its own browser tab title. */
function publicRoute(screen: PublicScreen): RouteObject {
  return {
    path: `/${screen.path}`,
    lazy: async () => {
      const { default: View } = await screen.load();
      return {
        Component: function PublicRoute() {
          const t = useT();
          useEffect(() => {
            document.title = publicPageTitle(t, screen);
          }, [t]);
          return <View />;
        },
      };
    },
  };
}

/** Every route of docs/product.md §2. Each screen, the shell and the public pages load lazily. */
export const routes: RouteObject[] = [
  ...publicScreens().map(publicRoute),
  {
    path: '/',
    lazy: async () => {
      // Every command declaration comes with the shell, not with the sign-in screen; both are
      // fetched together (one after the other, the shell came a round trip after the screen),
      // and the shell's data is asked meanwhile.
      void import('./shellQueries').then((m) => m.prefetchShellQueries());
      const [, shell] = await Promise.all([import('./commands'), import('../views/shell')]);
      return { Component: shell.default };
    },
    children: [
      { path: 'landings_test/0', element: <Navigate to="/" replace /> },
      // The refresh action of the visited-views bar goes through here to remount a screen.
      { path: 'redirect/*', element: <RedirectBack /> },
      ...allScreens().map(screenRoute),
    ],
  },
  { path: '*', element: <Navigate to="/404" replace /> },
];

export const createRouter = () => createBrowserRouter(routes);
