import { createBrowserRouter, Navigate, useParams, type RouteObject } from 'react-router';
import { paramsValid, type Screen, type ScreenHandle } from '../commands/screens';
import { RedirectBack } from './RedirectBack';
import { allScreens } from './screens';

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

/** Every route of SPEC.md §2. Each screen, the shell and the login screen load lazily. */
export const routes: RouteObject[] = [
  { path: '/login', lazy: async () => ({ Component: (await import('../views/auth')).default }) },
  { path: '/404', lazy: async () => ({ Component: (await import('../views/errors')).NotFound }) },
  { path: '/401', lazy: async () => ({ Component: (await import('../views/errors')).Unauthorised }) },
  {
    path: '/',
    lazy: async () => {
      // Every command declaration comes with the shell, not with the sign-in screen.
      await import('./commands');
      return { Component: (await import('../views/shell')).default };
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
