import { z } from 'zod';
import { user } from './auth';

/** Path parameter of /api/users/:id and /api/users/admin/:id. */
export const userIdParams = z.object({
  id: z.coerce.number({ error: 'Identifiant invalide' }).int('Identifiant invalide').positive('Identifiant invalide').max(2_147_483_647, 'Identifiant invalide'),
});

/** GET /api/users */
export const usersResponse = z.object({ data: z.array(user) });
export type UsersResponse = z.infer<typeof usersResponse>;

/** POST /api/users/admin/:id ('Rôle modifié') and DELETE /api/users/:id ('Utilisateur supprimé'). */
export const userActionResponse = z.object({ data: user, message: z.string() });
export type UserActionResponse = z.infer<typeof userActionResponse>;
