import type { Queryable } from '../../db/connection';
import { defineQueue } from '../jobs';
import { raiseAlert } from '../alerts/raise';

/** Failed attempts in a row (across the customer's deliveries) that pause its webhook. */
export const WEBHOOK_PAUSE_AFTER = 10;

/** Sends a customer's kept webhook deliveries, one at a time, in order (webhook-resume.ts). */
export const WEBHOOK_DRAIN_QUEUE = defineQueue<{ customer: number }>('live.webhook.drain', { retryLimit: 12, retryDelay: 1, retryBackoff: true });

/** The customer of the report in parameter `report` ('$2'). */
const customerOf = (report: string) => `(SELECT r.customer_id FROM reports rep JOIN rules r ON r.id = rep.rule_id WHERE rep.id = ${report})`;

/**
 * Keeps a webhook delivery instead of sending it when its customer's webhook is paused, or when
 * deliveries kept earlier are still waiting (sending it now would pass them). Answers null when
 * it is to be sent now, else its customer and whether the webhook is live (kept behind a backlog
 * being sent: the caller queues the drain).
 */
export async function keepWebhookDelivery(q: Queryable, job: { lead: number; report: number }): Promise<{ customer: number; live: boolean } | null> {
  const { rows } = await q.query<{ customer: number; live: boolean }>(
    `WITH c AS (
       SELECT c.id, c.webhook_paused_at IS NULL AS live FROM customers c
        WHERE c.id = ${customerOf('$2')}
          AND (c.webhook_paused_at IS NOT NULL OR EXISTS (SELECT 1 FROM webhook_held h WHERE h.customer_id = c.id))
     ), kept AS (
       INSERT INTO webhook_held (lead_id, report_id, customer_id, queued_at)
       SELECT $1, $2, c.id, coalesce((SELECT min(d.created_at) FROM deliveries d WHERE d.lead_id = $1 AND d.report_id = $2 AND d.channel = 'webhook'), now())
         FROM c
       ON CONFLICT DO NOTHING
     )
     SELECT id AS customer, live FROM c`,
    [job.lead, job.report],
  );
  return rows[0] ?? null;
}

/** A webhook delivery went through: the failures in a row start again from 0. */
export async function webhookSucceeded(q: Queryable, job: { lead: number; report: number }) {
  await q.query(`UPDATE customers SET webhook_failures = 0 WHERE id = ${customerOf('$1')} AND webhook_failures <> 0`, [job.report]);
}

/**
 * Counts a failed attempt, in the transaction that logs it. The 10th in a row pauses the webhook
 * and raises 'webhook_paused' once (the pause is a transition: a paused webhook is not paused
 * again); the delivery is then kept, as every later one until an admin resumes it. Answers
 * whether it was kept.
 */
export async function webhookFailed(q: Queryable, job: { lead: number; report: number }): Promise<boolean> {
  const { rows } = await q.query<{ id: number; paused_now: boolean; paused: boolean }>(
    `WITH old AS (SELECT id, webhook_paused_at FROM customers WHERE id = ${customerOf('$1')} FOR UPDATE)
     UPDATE customers c
        SET webhook_failures = c.webhook_failures + 1,
            webhook_paused_at = CASE WHEN c.webhook_paused_at IS NULL AND c.webhook_failures + 1 >= $2 THEN now() ELSE c.webhook_paused_at END
       FROM old WHERE c.id = old.id
     RETURNING c.id, old.webhook_paused_at IS NULL AND c.webhook_paused_at IS NOT NULL AS paused_now, c.webhook_paused_at IS NOT NULL AS paused`,
    [job.report, WEBHOOK_PAUSE_AFTER],
  );
  const customer = rows[0];
  if (!customer?.paused) return false;
  if (customer.paused_now) await raiseAlert(q, { kind: 'webhook_paused', customerId: customer.id });
  await keepWebhookDelivery(q, job);
  return true;
}
