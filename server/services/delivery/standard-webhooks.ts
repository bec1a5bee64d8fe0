import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks (standardwebhooks.com): the signing key is the customer's webhook secret read
 * as the 32 bytes it encodes (base64url), which the convention's libraries take in its
 * `whsec_<base64>` form; the signature is `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`.
 */
export const standardWebhookSecret = (secret: string) => `whsec_${Buffer.from(secret, 'base64url').toString('base64')}`;

/** The convention's three headers of one attempt: the id stays across retries, the timestamp is the attempt's (seconds). */
export function standardWebhookHeaders(secret: string, id: string, body: string, now = new Date()): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const signature = createHmac('sha256', Buffer.from(secret, 'base64url')).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
