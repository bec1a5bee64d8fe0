import { Navigate, useLocation } from 'react-router';

/** /redirect/<path> → /<path>, replacing the history entry: the screen mounts afresh. */
export function RedirectBack() {
  const { pathname, search } = useLocation();
  return <Navigate to={pathname.replace(/^\/redirect/, '') + search} replace />;
}
