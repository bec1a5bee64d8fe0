/**
 * Where signing in leads: back to the page the user was on when the session ended (a revoked or
 * expired token, a bookmark opened signed out), carried as /login?redirect=… Only a path of this
 * console is followed (no other site, no loop back to /login).
 */
export function loginPath(from: string): string {
  return from === '/' || from.startsWith('/login') ? '/login' : `/login?redirect=${encodeURIComponent(from)}`;
}

export function returnPath(search: string): string {
  const to = new URLSearchParams(search).get('redirect') ?? '';
  return to.startsWith('/') && !to.startsWith('//') && !to.startsWith('/\\') && !to.startsWith('/login') ? to : '/';
}
