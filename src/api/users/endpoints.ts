import { defineEndpoint } from '../endpoint';
import { inviteResponse, userActionResponse, usersResponse } from './contract';

export const usersApi = {
  list: defineEndpoint({ method: 'GET', path: '/api/users', auth: 'admin', response: usersResponse, summary: 'Every account, by name' }),
  toggleAdmin: defineEndpoint({ method: 'POST', path: '/api/users/admin/:id', auth: 'admin', response: userActionResponse, summary: 'Admin ↔ normal' }),
  reinvite: defineEndpoint({
    method: 'POST',
    path: '/api/users/:id/invite',
    auth: 'admin',
    response: inviteResponse,
    summary: 'A new invitation link for an account without a password',
  }),
  remove: defineEndpoint({ method: 'DELETE', path: '/api/users/:id', auth: 'admin', response: userActionResponse, summary: 'Deletes an account' }),
};
