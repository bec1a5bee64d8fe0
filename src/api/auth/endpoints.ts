import { defineEndpoint } from '../endpoint';
import {
  forgotPasswordRequest,
  forgotPasswordResponse,
  passwordChangeRequest,
  passwordChangeResponse,
  passwordCheckRequest,
  passwordCheckResponse,
  passwordSetRequest,
  passwordSetResponse,
} from '../users/contract';
import { loginRequest, loginResponse, logoutResponse, meResponse, registerRequest, registerResponse } from './contract';

/** Sessions, the signed-in user, invitations and password links. */
export const authApi = {
  login: defineEndpoint({
    method: 'POST',
    path: '/api/auth',
    auth: 'public',
    body: loginRequest,
    response: loginResponse,
    summary: 'Sign in: a session token',
  }),
  logout: defineEndpoint({
    method: 'POST',
    path: '/api/login/logout',
    auth: 'user',
    enrolment: true,
    response: logoutResponse,
    summary: 'Closes this session',
  }),
  me: defineEndpoint({ method: 'GET', path: '/api/me', auth: 'user', response: meResponse, summary: 'The signed-in user' }),
  userInfo: defineEndpoint({ method: 'GET', path: '/api/user/info', auth: 'user', response: meResponse, summary: 'The signed-in user (older clients)' }),
  register: defineEndpoint({
    method: 'POST',
    path: '/api/auth/register',
    auth: 'admin',
    body: registerRequest,
    response: registerResponse,
    summary: 'Creates an account and mails it an invitation',
  }),
  checkPasswordLink: defineEndpoint({
    method: 'POST',
    path: '/api/auth/password/check',
    auth: 'public',
    body: passwordCheckRequest,
    response: passwordCheckResponse,
    summary: 'What a password link opens (410 once it no longer works)',
  }),
  setPassword: defineEndpoint({
    method: 'POST',
    path: '/api/auth/password/reset',
    auth: 'public',
    body: passwordSetRequest,
    response: passwordSetResponse,
    summary: "Sets the password of a link's account",
  }),
  forgotPassword: defineEndpoint({
    method: 'POST',
    path: '/api/auth/password/forgot',
    auth: 'public',
    body: forgotPasswordRequest,
    response: forgotPasswordResponse,
    summary: 'Mails a reset link, if the address has an account',
  }),
  changePassword: defineEndpoint({
    method: 'POST',
    path: '/api/me/password',
    auth: 'user',
    body: passwordChangeRequest,
    response: passwordChangeResponse,
    summary: "Changes one's own password, closing the other sessions",
  }),
};
