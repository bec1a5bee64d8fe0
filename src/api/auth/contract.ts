import { z } from 'zod';

export const loginRequest = z
  .object({
    email: z.string().max(254, 'Adresse email trop longue').optional(),
    username: z.string().max(254, 'Identifiant trop long').optional(),
    password: z.string().min(1, 'Mot de passe requis').max(1024),
    code: z.string().max(64).optional(),
  })
  .transform((b, ctx) => {
    const login = (b.email ?? b.username ?? '').trim();
    if (!login) ctx.addIssue({ code: 'custom', path: ['email'], message: 'Identifiant requis' });
    return { login: login.toLowerCase(), password: b.password };
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

/** POST /api/auth: the token (also at the top level, as older clients read it) and the user. */
export const loginResponse = z.object({ data: z.object({ token: z.string(), user }), token: z.string() });

/** GET /api/me, GET /api/user/info */
export const meResponse = z.object({ data: user });

/** POST /api/login/logout */
export const logoutResponse = z.object({ data: z.literal(true) });

/** POST /api/auth/register */
export const registerResponse = z.object({ data: user, message: z.string() });
