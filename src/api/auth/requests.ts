// The public account calls: 'Mot de passe oublié ?' and the page where a link's holder chooses a password.
import { call } from '../client';
import { authApi } from './endpoints';

/** Asks for a link to choose a new password; the answer is the same whether the address has an account or not. */
export const requestPasswordReset = (email: string) => call(authApi.forgotPassword, { body: { email } });

/** What a link opens (whose account, invitation or reset), before the form shows; 410 when it no longer works. */
export const checkPasswordLink = (token: string) => call(authApi.checkPasswordLink, { body: { token } }).then((r) => r.data);

/** Sets the password of the link's account (invitation or reset); the link then no longer works. */
export const choosePassword = (token: string, password: string) => call(authApi.setPassword, { body: { token, password } });
