import { z } from 'zod';

/** A code typed by the user: 6 digits of the authenticator app, or a recovery code (dashes and spaces ignored). */
export const factorCode = z
  .string({ error: 'Code requis' })
  .trim()
  .min(1, 'Code requis')
  .max(64, 'Code trop long')
  .transform((c) => c.replace(/[\s-]/g, '').toUpperCase());

export const loginRequest = z
  .object({
    email: z.string().max(254, 'Adresse email trop longue').optional(),
    username: z.string().max(254, 'Identifiant trop long').optional(),
    password: z.string().min(1, 'Mot de passe requis').max(1024),
    // The second factor of an account that has one: without it, 401 code_required.
    code: z.string().max(64, 'Code trop long').optional(),
  })
  .transform((b, ctx) => {
    const login = (b.email ?? b.username ?? '').trim();
    if (!login) ctx.addIssue({ code: 'custom', path: ['email'], message: 'Identifiant requis' });
    const code = b.code?.replace(/[\s-]/g, '').toUpperCase();
    return { login: login.toLowerCase(), password: b.password, code: code || undefined };
  });
export type LoginRequest = z.input<typeof loginRequest>;

export const user = z.object({
  id: z.number(),
  email: z.string(),
  name: z.string(),
  admin: z.boolean(),
  role: z.enum(['admin', 'normal']),
});
export type User = z.infer<typeof user>;

export const registerRequest = z.object({
  name: z.string().trim().min(1, 'Nom requis').max(200),
  email: z.string().trim().toLowerCase().email('Adresse email invalide').max(254),
});
export type RegisterRequest = z.input<typeof registerRequest>;

/**
 * POST /api/auth: the token (also at the top level, as older clients read it) and the user.
 * `enrolment_required`: REQUIRE_2FA asks this account for a second factor it does not have yet;
 * until it enrols one, the session reaches only the enrolment (403 enrolment_required elsewhere).
 */
export const loginResponse = z.object({
  data: z.object({ token: z.string(), user, enrolment_required: z.literal(true).optional() }),
  token: z.string(),
});

/** GET /api/me, GET /api/user/info */
export const meResponse = z.object({ data: user });

/** POST /api/login/logout */
export const logoutResponse = z.object({ data: z.literal(true) });

/** POST /api/auth/register */
export const registerResponse = z.object({ data: user, message: z.string() });
