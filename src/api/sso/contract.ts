import { z } from 'zod';
import { loginResponse } from '../auth/contract';

/** GET /api/auth/methods: how one may sign in here, for the sign-in page. */
export const authMethodsResponse = z.object({
  data: z.object({
    password: z.literal(true),
    oidc: z.object({ label: z.string() }).nullable(),
    passkeys: z.boolean(),
  }),
});

/** POST /api/auth/sso: the one-time code of `/login?sso=<code>` for a session. */
export const ssoExchangeRequest = z.object({ code: z.string().min(1, 'Code requis').max(200) });

/** Same answer as POST /api/auth. */
export const ssoExchangeResponse = loginResponse;

/** Why `/login?sso_error=<reason>` came back from the provider. */
export const ssoFailures = ['expired', 'refused', 'failed', 'unverified', 'unknown'] as const;
