// Account actions of the accounts screen: the role, the deletion and the invitations.
import type { RegisterRequest } from '../auth/contract';
import { authApi } from '../auth/endpoints';
import { call } from '../client';
import { usersApi } from './endpoints';

/** POST /api/users/admin/:id: admin ↔ normal ('Rôle modifié'). */
export const toggleRole = (id: number) => call(usersApi.toggleAdmin, { params: { id } });

/** DELETE /api/users/:id ('Utilisateur supprimé'). */
export const deleteUser = (id: number) => call(usersApi.remove, { params: { id } });

/** POST /api/auth/register: the account, and an invitation mailed to it. */
export const inviteUser = (body: RegisterRequest) => call(authApi.register, { body });

/** POST /api/users/:id/invite: a new invitation link for an account without a password ('Invitation envoyée'). */
export const resendInvitation = (id: number) => call(usersApi.reinvite, { params: { id } });
