import { defineEndpoint } from '../endpoint';
import { authMethodsResponse, ssoExchangeRequest, ssoExchangeResponse } from './contract';

/** The sign-in page's methods and the single sign-on (OpenID Connect): its redirects and the one-time code's exchange. */
export const ssoApi = {
  methods: defineEndpoint({
    method: 'GET',
    path: '/api/auth/methods',
    auth: 'public',
    response: authMethodsResponse,
    summary: 'How one may sign in here: password, single sign-on, passkeys',
  }),
  start: defineEndpoint({
    method: 'GET',
    path: '/api/auth/oidc/start',
    auth: 'public',
    response: 'none',
    summary: "Single sign-on: a redirect to the provider's authorization endpoint",
  }),
  callback: defineEndpoint({
    method: 'GET',
    path: '/api/auth/oidc/callback',
    auth: 'public',
    response: 'none',
    summary: "The provider's return: a redirect to the sign-in page with a one-time code or the failure",
  }),
  exchange: defineEndpoint({
    method: 'POST',
    path: '/api/auth/sso',
    auth: 'public',
    body: ssoExchangeRequest,
    response: ssoExchangeResponse,
    summary: "Sign in with single sign-on's one-time code: a session token",
  }),
};
