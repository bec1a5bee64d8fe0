// The public account calls: 'Mot de passe oublié ?' and the page where a link's holder chooses a password.
import { apiEnvelope } from '../client';

/** Asks for a link to choose a new password; the answer is the same whether the address has an account or not. */
export const requestPasswordReset = (email: string) => apiEnvelope<{ message?: string }>('/auth/password/forgot', { method: 'POST', body: { email } });

/** Sets the password of the link's account (invitation or reset); the link then no longer works. */
export const choosePassword = (token: string, password: string) =>
  apiEnvelope<{ data: { email: string } }>('/auth/password/reset', { method: 'POST', body: { token, password } });
