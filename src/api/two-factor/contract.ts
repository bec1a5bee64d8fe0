import { z } from 'zod';
import { factorCode, loginResponse } from '../auth/contract';

export const passkey = z.object({ id: z.number(), name: z.string(), created_at: z.string() });
export type Passkey = z.infer<typeof passkey>;

/** GET /api/me/2fa: the account's factors. */
export const twoFactorStatusResponse = z.object({
  data: z.object({ totp: z.boolean(), passkeys: z.array(passkey), recovery_codes_left: z.number() }),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusResponse>['data'];

/** POST /api/me/2fa/totp: a new secret, pending until confirmed by a code. */
export const totpEnrolmentResponse = z.object({ data: z.object({ secret: z.string(), otpauth_url: z.string(), qr_svg: z.string() }) });
export type TotpEnrolment = z.infer<typeof totpEnrolmentResponse>['data'];

/** POST /api/me/2fa/totp/confirm and DELETE /api/me/2fa/totp. */
export const codeRequest = z.object({ code: factorCode });

/** POST /api/me/2fa/totp/confirm: the ten recovery codes, shown this once. */
export const totpConfirmResponse = z.object({ data: z.object({ recovery_codes: z.array(z.string()) }), message: z.string() });

/** DELETE /api/me/2fa/totp, DELETE /api/me/2fa/passkeys/:id, DELETE /api/users/:id/2fa. */
export const factorRemovedResponse = z.object({ data: z.literal(true), message: z.string() });

/** What the browser's WebAuthn call gives back, as @simplewebauthn/browser encodes it (checked in depth by the server library). */
const credentialResponse = z.object({
  id: z.string().min(1).max(1366),
  rawId: z.string().min(1).max(1366),
  type: z.literal('public-key'),
  response: z.object({ clientDataJSON: z.string().max(65536) }).catchall(z.unknown()),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.string().optional(),
});

/** The options the browser hands to navigator.credentials (challenge, relying party…): PublicKeyCredential*OptionsJSON. */
export const webauthnOptionsResponse = z.object({ data: z.object({ challenge: z.string() }).catchall(z.unknown()) });

const passkeyName = z.string({ error: 'Nom requis' }).trim().min(1, 'Nom requis').max(64, 'Nom trop long (64 caractères au plus)');

/** POST /api/me/2fa/passkeys: the answer to the registration options, and a name for the key. */
export const passkeyRegisterRequest = z.object({ name: passkeyName, response: credentialResponse });
/** PATCH /api/me/2fa/passkeys/:id */
export const passkeyRenameRequest = z.object({ name: passkeyName });
export const passkeyResponse = z.object({ data: passkey, message: z.string() });

/**
 * POST /api/auth/passkey: an assertion. Alone, it signs in when the authenticator verified its
 * user (PIN, biometrics); with `email` and `password`, it is the second factor of that account.
 */
export const passkeySignInRequest = z.object({
  response: credentialResponse,
  email: z.string().trim().toLowerCase().max(254).optional(),
  password: z.string().max(1024).optional(),
});
export const passkeySignInResponse = loginResponse;
