import { z } from 'zod';

/** POST /api/customers/:id/webhook/resume: how many kept deliveries are now sent, first, in their order. */
export const webhookResumeResponse = z.object({ held: z.number(), message: z.string() });
