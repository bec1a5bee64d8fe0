// The account's second factors (its 'Double authentification' dialog), the passkey sign-in and an admin's reset.
import {
  startAuthentication,
  startRegistration,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import type { z } from 'zod';
import { call } from '../client';
import type { ResponseOf } from '../endpoint';
import type { passkeySignInRequest } from './contract';
import { twoFactorApi } from './endpoints';

/**
 * The browser library's answer as the contract types it: its interfaces lack the contract's open
 * key sets (`catchall`), though they are what the contract checks (the server verifies them in depth).
 */
const asCredential = (credential: RegistrationResponseJSON | AuthenticationResponseJSON) =>
  credential as unknown as z.input<typeof passkeySignInRequest>['response'];

export type SignedIn = ResponseOf<typeof twoFactorApi.signIn>;

/** POST /api/me/2fa/totp: a new secret and its QR code, pending until confirmed. */
export const beginTotp = () => call(twoFactorApi.beginTotp).then((r) => r.data);

/** POST /api/me/2fa/totp/confirm: the ten recovery codes, shown once. */
export const confirmTotp = (code: string) => call(twoFactorApi.confirmTotp, { body: { code } });

/** DELETE /api/me/2fa/totp, on a code of the app or a recovery code. */
export const removeTotp = (code: string) => call(twoFactorApi.removeTotp, { body: { code } });

/** Registration options from the server, the browser's authenticator, then the key kept under `name`. */
export async function addPasskey(name: string) {
  const options = await call(twoFactorApi.passkeyOptions);
  const credential = await startRegistration({ optionsJSON: options.data as unknown as PublicKeyCredentialCreationOptionsJSON });
  return call(twoFactorApi.addPasskey, { body: { name, response: asCredential(credential) } });
}

export const renamePasskey = (id: number, name: string) => call(twoFactorApi.renamePasskey, { params: { id }, body: { name } });

export const removePasskey = (id: number) => call(twoFactorApi.removePasskey, { params: { id } });

/** Signs in with a passkey: alone, or after the password (`email`, `password`) as its second factor. */
export async function signInWithPasskey(credentials?: { email: string; password: string }) {
  const options = await call(twoFactorApi.signInOptions);
  const credential = await startAuthentication({ optionsJSON: options.data as unknown as PublicKeyCredentialRequestOptionsJSON });
  return (await call(twoFactorApi.signIn, { body: { response: asCredential(credential), ...credentials } })).data;
}

/** DELETE /api/users/:id/2fa (admin): the account's factors go and its sessions end. */
export const resetFactors = (id: number) => call(twoFactorApi.reset, { params: { id } });
