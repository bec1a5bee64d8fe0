import { z } from 'zod';
import { user } from '../auth/contract';

export { registerRequest, registerResponse, type RegisterRequest } from '../auth/contract';

/**
 * An account of the list. `invitation`: the account has no password yet (its invitation link,
 * valid 48 h, is mailed and not used; `expires_at` null while the mail job has not made it yet);
 * `expired` once the link can no longer be used, so the admin sends a new one (POST /api/users/:id/invite).
 */
export const account = user.extend({
  created_at: z.string(),
  invitation: z.object({ expires_at: z.string().nullable(), expired: z.boolean() }).nullable(),
});
export type Account = z.infer<typeof account>;

/** GET /api/users */
export const usersResponse = z.object({ data: z.array(account) });

/** POST /api/users/admin/:id ('Rôle modifié') and DELETE /api/users/:id ('Utilisateur supprimé'). */
export const userActionResponse = z.object({ data: user, message: z.string() });

/**
 * POST /api/users/:id/invite (admin): mails a new invitation link to an account that has not
 * chosen its password yet ('Invitation envoyée'); the previous link stops working. An account
 * that already has a password → 409 (it uses 'Mot de passe oublié ?').
 */
export const inviteResponse = z.object({ data: account, message: z.string() });

/**
 * A password the user chooses: 12 to 256 characters (OWASP ASVS 2.1), any characters, spaces
 * included; nothing else is imposed.
 */
export const newPassword = z
  .string({ error: 'Mot de passe requis' })
  .min(12, 'Le mot de passe doit contenir au moins 12 caractères')
  .max(256, 'Le mot de passe doit contenir au plus 256 caractères');

/**
 * The token of an invitation or reset link. Mails carry `${PUBLIC_URL}/password/choose#token=<token>`: the
 * token sits in the fragment, which browsers never send to a server nor put in a Referer; the
 * page reads it and posts it in a body.
 */
const passwordToken = z.string({ error: 'Lien invalide' }).regex(/^[A-Za-z0-9_-]{43}$/, 'Lien invalide');

/**
 * POST /api/auth/password/check (public): what the link opens, before the form is shown.
 * A used, expired, replaced or unknown link → 410 `link_invalid` 'Ce lien n'est plus valable…'.
 */
export const passwordCheckRequest = z.object({ token: passwordToken });
const passwordLinkPurpose = z.enum(['invite', 'reset']);
export type PasswordLinkPurpose = z.infer<typeof passwordLinkPurpose>;
export const passwordCheckResponse = z.object({
  data: z.object({ email: z.string(), name: z.string(), purpose: passwordLinkPurpose, expires_at: z.string() }),
});

/**
 * POST /api/auth/password/reset (public): sets the password from an invitation or reset link, once.
 * Every session of the account ends; the user then signs in normally (POST /api/auth).
 * Answer 'Mot de passe enregistré, vous pouvez vous connecter'. Bad link → 410 `link_invalid`.
 * Rate-limited per address (429 `rate_limited`).
 */
export const passwordSetRequest = z.object({ token: passwordToken, password: newPassword });
export const passwordSetResponse = z.object({ data: z.object({ email: z.string() }), message: z.string() });

/**
 * POST /api/auth/password/forgot (public, 'Mot de passe oublié ?'): mails a reset link (valid 48 h) when
 * the address has an account. The answer is the same, in the same time, whether it has one or
 * not: 'Si un compte correspond à cette adresse, un email vient de lui être envoyé'.
 * Rate-limited per address and per email (429 `rate_limited`).
 */
export const forgotPasswordRequest = z.object({
  email: z.string({ error: 'Adresse email requise' }).trim().toLowerCase().email('Adresse email invalide').max(254),
});
export const forgotPasswordResponse = z.object({ data: z.literal(true), message: z.string() });

/**
 * POST /api/me/password (signed in): changes one's own password; every other session of the
 * account ends, this one stays. Wrong current password → 422 with `current_password`.
 * Answer 'Mot de passe modifié'.
 */
export const passwordChangeRequest = z.object({
  current_password: z.string({ error: 'Mot de passe actuel requis' }).min(1, 'Mot de passe actuel requis').max(1024),
  password: newPassword,
});
export const passwordChangeResponse = z.object({ data: z.object({ sessions_closed: z.number() }), message: z.string() });
