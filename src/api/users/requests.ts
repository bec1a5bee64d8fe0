// Account actions of the accounts screen: the role, the deletion and the invitations.
import type { RegisterRequest, User } from '../auth/contract';
import { apiEnvelope } from '../client';
import type { InviteResponse, UserActionResponse } from './contract';

/** POST /api/users/admin/:id: admin ↔ normal ('Rôle modifié'). */
export const toggleRole = (id: number) => apiEnvelope<UserActionResponse>(`/users/admin/${id}`, { method: 'POST' });

/** DELETE /api/users/:id ('Utilisateur supprimé'). */
export const deleteUser = (id: number) => apiEnvelope<UserActionResponse>(`/users/${id}`, { method: 'DELETE' });

/** POST /api/auth/register: the account, and an invitation mailed to it. */
export const inviteUser = (body: RegisterRequest) => apiEnvelope<{ data: User; message: string }>('/auth/register', { method: 'POST', body });

/** POST /api/users/:id/invite: a new invitation link for an account without a password ('Invitation envoyée'). */
export const resendInvitation = (id: number) => apiEnvelope<InviteResponse>(`/users/${id}/invite`, { method: 'POST' });
