// Account actions of the accounts screen: the role, the deletion and the invitation.
import type { RegisterRequest, User } from '../auth/contract';
import { apiEnvelope } from '../client';
import type { UserActionResponse } from './contract';

/** POST /api/users/admin/:id: admin ↔ normal ('Rôle modifié'). */
export const toggleRole = (id: number) => apiEnvelope<UserActionResponse>(`/users/admin/${id}`, { method: 'POST' });

/** DELETE /api/users/:id ('Utilisateur supprimé'). */
export const deleteUser = (id: number) => apiEnvelope<UserActionResponse>(`/users/${id}`, { method: 'DELETE' });

/** POST /api/auth/register: the account, and an invitation mailed to it. */
export const inviteUser = (body: RegisterRequest) => apiEnvelope<{ data: User; message: string }>('/auth/register', { method: 'POST', body });
