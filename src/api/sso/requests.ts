// The sign-in page's single sign-on: which methods the server offers, and the one-time code's exchange.
import type { User } from '../auth/contract';
import { api } from '../client';
import type { AuthMethods } from './contract';

export const fetchAuthMethods = () => api<AuthMethods>('/auth/methods');

/** POST /api/auth/sso: the code of `/login?sso=…` for a session, as POST /api/auth answers. */
export const exchangeSsoCode = (code: string) => api<{ token: string; user: User }>('/auth/sso', { method: 'POST', body: { code } });

/** Where the 'Se connecter avec …' link goes: the server sends the browser on to the provider. */
export const ssoStartPath = '/api/auth/oidc/start';
