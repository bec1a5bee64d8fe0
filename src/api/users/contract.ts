import { z } from 'zod';
import { user } from '../auth/contract';

/** GET /api/users */
export const usersResponse = z.object({ data: z.array(user) });
export type UsersResponse = z.infer<typeof usersResponse>;

/** POST /api/users/admin/:id ('Rôle modifié') and DELETE /api/users/:id ('Utilisateur supprimé'). */
export const userActionResponse = z.object({ data: user, message: z.string() });
export type UserActionResponse = z.infer<typeof userActionResponse>;
