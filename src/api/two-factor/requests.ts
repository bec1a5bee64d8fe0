// The account's second factors (its 'Double authentification' dialog), the passkey sign-in and an admin's reset.
import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { User } from '../auth/contract';
import { api, apiEnvelope } from '../client';
import type { Passkey, TotpEnrolment } from './contract';

type Done = { data: true; message: string };
export type SignedIn = { data: { token: string; user: User; enrolment_required?: true } };

/** POST /api/me/2fa/totp: a new secret and its QR code, pending until confirmed. */
export const beginTotp = () => api<TotpEnrolment>('/me/2fa/totp', { method: 'POST' });

/** POST /api/me/2fa/totp/confirm: the ten recovery codes, shown once. */
export const confirmTotp = (code: string) =>
  apiEnvelope<{ data: { recovery_codes: string[] }; message: string }>('/me/2fa/totp/confirm', { method: 'POST', body: { code } });

/** DELETE /api/me/2fa/totp, on a code of the app or a recovery code. */
export const removeTotp = (code: string) => apiEnvelope<Done>('/me/2fa/totp', { method: 'DELETE', body: { code } });

/** Registration options from the server, the browser's authenticator, then the key kept under `name`. */
export async function addPasskey(name: string) {
  const optionsJSON = await api<PublicKeyCredentialCreationOptionsJSON>('/me/2fa/passkeys/options', { method: 'POST' });
  const response = await startRegistration({ optionsJSON });
  return apiEnvelope<{ data: Passkey; message: string }>('/me/2fa/passkeys', { method: 'POST', body: { name, response } });
}

export const renamePasskey = (id: number, name: string) =>
  apiEnvelope<{ data: Passkey; message: string }>(`/me/2fa/passkeys/${id}`, { method: 'PATCH', body: { name } });

export const removePasskey = (id: number) => apiEnvelope<Done>(`/me/2fa/passkeys/${id}`, { method: 'DELETE' });

/** Signs in with a passkey: alone, or after the password (`email`, `password`) as its second factor. */
export async function signInWithPasskey(credentials?: { email: string; password: string }) {
  const optionsJSON = await api<PublicKeyCredentialRequestOptionsJSON>('/auth/passkey/options', { method: 'POST' });
  const response = await startAuthentication({ optionsJSON });
  return (await apiEnvelope<SignedIn>('/auth/passkey', { method: 'POST', body: { response, ...credentials } })).data;
}

/** DELETE /api/users/:id/2fa (admin): the account's factors go and its sessions end. */
export const resetFactors = (id: number) => apiEnvelope<Done>(`/users/${id}/2fa`, { method: 'DELETE' });
