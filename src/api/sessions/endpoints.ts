import { defineEndpoint } from '../endpoint';
import { endOthersResponse, endSessionResponse, sessionsResponse } from './contract';

/** 'Mes sessions': the signed-in account's sessions. */
export const sessionsApi = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/me/sessions',
    auth: 'user',
    response: sessionsResponse,
    summary: "The account's open sessions, latest activity first",
  }),
  end: defineEndpoint({
    method: 'DELETE',
    path: '/api/me/sessions/:id',
    auth: 'user',
    response: endSessionResponse,
    summary: 'Ends one session of the account',
  }),
  endOthers: defineEndpoint({
    method: 'POST',
    path: '/api/me/sessions/end-others',
    auth: 'user',
    response: endOthersResponse,
    summary: 'Ends every session of the account but this one',
  }),
};
