import { z } from 'zod';

/** One open session of the signed-in account. `id` names it to its owner and grants nothing: never the token. */
export const session = z.object({
  id: z.number(),
  current: z.boolean(),
  user_agent: z.string(),
  address: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string(),
  method: z.enum(['password', 'sso', 'passkey']),
});
export type Session = z.infer<typeof session>;

/** GET /api/me/sessions: newest activity first. */
export const sessionsResponse = z.object({ data: z.array(session) });

/** DELETE /api/me/sessions/:id */
export const endSessionResponse = z.object({ data: z.literal(true) });

/** POST /api/me/sessions/end-others ('Se déconnecter partout'): how many ended. */
export const endOthersResponse = z.object({ data: z.object({ count: z.number() }) });
