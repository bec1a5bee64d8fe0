import { defineEndpoint } from '../endpoint';
import { webhookResumeResponse } from './contract';

/** A customer's webhook, paused after 10 failed attempts in a row (docs/operations.md 'Paused webhooks'). */
export const webhooksApi = {
  resume: defineEndpoint({
    method: 'POST',
    path: '/api/customers/:id/webhook/resume',
    auth: 'admin',
    response: webhookResumeResponse,
    summary: 'Resumes a paused webhook: the deliveries kept meanwhile are sent first, in their order',
  }),
};
