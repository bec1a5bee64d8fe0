import { call } from '../client';
import { webhooksApi } from './endpoints';

/** POST /api/customers/:id/webhook/resume: its kept deliveries are sent first, in order; 409 when not paused. */
export const resumeWebhook = (customerId: number) => call(webhooksApi.resume, { params: { id: customerId } });
