// The sign-in page's single sign-on: which methods the server offers, and the one-time code's exchange.
import { call } from '../client';
import { ssoApi } from './endpoints';

export const fetchAuthMethods = () => call(ssoApi.methods).then((r) => r.data);

/** POST /api/auth/sso: the code of `/login?sso=…` for a session, as POST /api/auth answers. */
export const exchangeSsoCode = (code: string) => call(ssoApi.exchange, { body: { code } }).then((r) => r.data);

/** Where the 'Se connecter avec …' link goes: the server sends the browser on to the provider. */
export const ssoStartPath = ssoApi.start.path;
