/**
 * The signed-in user (valtio). The token lives in the Admin-Token cookie (docs/product.md §2), read
 * again on every request by src/api/client.ts, so another tab signing out is noticed.
 */
import { proxy } from 'valtio';
import type { User } from '../api/auth/contract';

export const TOKEN_COOKIE = 'Admin-Token';

export function readToken(): string | null {
  if (typeof document === 'undefined') return null;
  const match = document.cookie.split('; ').find((c) => c.startsWith(`${TOKEN_COOKIE}=`));
  return match ? decodeURIComponent(match.slice(TOKEN_COOKIE.length + 1)) : null;
}

function writeToken(token: string | null) {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = token
    ? `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; SameSite=Strict${secure}`
    : `${TOKEN_COOKIE}=; Path=/; Max-Age=0; SameSite=Strict${secure}`;
}

export type UserStatus = 'signed-out' | 'loading' | 'ready';

export const userState = proxy({
  token: readToken(),
  status: (readToken() ? 'loading' : 'signed-out') as UserStatus,
  userData: null as User | null,
  /** REQUIRE_2FA asks this account for a second factor it does not have: the shell shows only its enrolment. */
  enrolmentRequired: false,
});

export function signIn(token: string, user?: User, enrolmentRequired = false) {
  writeToken(token);
  userState.token = token;
  userState.userData = user ?? null;
  userState.enrolmentRequired = enrolmentRequired;
  userState.status = user ? 'ready' : 'loading';
}

export function setUserData(user: User) {
  userState.userData = user;
  userState.status = 'ready';
}

export function signOutLocally() {
  writeToken(null);
  userState.token = null;
  userState.userData = null;
  userState.enrolmentRequired = false;
  userState.status = 'signed-out';
}
