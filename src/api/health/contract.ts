import { z } from 'zod';

/** GET /api/health (public): the process answers. For a load balancer's liveness check. */
export const healthResponse = z.object({ status: z.literal('ok') });

/**
 * GET /api/ready (public): the database and the job queue answer; 503 with the same shape and
 * `status: 'unavailable'` when either does not. For a load balancer's readiness check.
 */
export const readyResponse = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.boolean(),
  jobs: z.boolean(),
});
export type ReadyResponse = z.infer<typeof readyResponse>;
