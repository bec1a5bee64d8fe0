import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { screens, type ScreenHandle } from './screens';
import { RedirectBack } from './RedirectBack';

/** Every route of SPEC.md §2. Each screen, the shell and the login screen load lazily. */
export const routes: RouteObject[] = [
  { path: '/login', lazy: async () => ({ Component: (await import('../views/auth')).default }) },
  { path: '/404', lazy: async () => ({ Component: (await import('../views/errors')).NotFound }) },
  { path: '/401', lazy: async () => ({ Component: (await import('../views/errors')).Unauthorised }) },
  {
    path: '/',
    lazy: async () => ({ Component: (await import('../views/shell')).default }),
    children: [
      { path: 'landings_test/0', element: <Navigate to="/" replace /> },
      // The refresh action of the visited-views bar goes through here to remount a screen.
      { path: 'redirect/*', element: <RedirectBack /> },
      ...screens.map(
        (screen): RouteObject => ({
          ...(screen.path === '' ? { index: true } : { path: screen.path }),
          handle: { screen } satisfies ScreenHandle,
          lazy: async () => ({ Component: (await screen.load()).default }),
        }),
      ),
    ],
  },
  { path: '*', element: <Navigate to="/404" replace /> },
];

export const createRouter = () => createBrowserRouter(routes);
