import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import { conflict, notFound } from '../../errors';
import { audit } from '../audit';
import { customerNotFound } from '../lives/customers';
import { attemptDelivery } from './deliver';
import { WEBHOOK_DRAIN_QUEUE } from './webhook-pause';

/** A drain silent this long died with its instance: another may take over. */
const DRAIN_LEASE_SECONDS = 120;

/**
 * POST /api/customers/:id/webhook/resume: the webhook sends again, from 0 failures; the
 * deliveries kept while it was paused go first, in the order they were first tried. 409 when it
 * is not paused.
 */
export async function resumeWebhook(ctx: Pick<AppContext, 'db' | 'jobs'>, userId: number, customerId: number): Promise<{ held: number; message: string }> {
  const held = await ctx.db.tx(async (q) => {
    const { rows } = await q.query<{ paused: boolean }>('SELECT webhook_paused_at IS NOT NULL AS paused FROM customers WHERE id = $1 FOR UPDATE', [customerId]);
    if (!rows[0]) throw notFound(customerNotFound);
    if (!rows[0].paused) throw conflict("Le webhook de ce client n'est pas en pause");
    await q.query('UPDATE customers SET webhook_paused_at = NULL, webhook_failures = 0 WHERE id = $1', [customerId]);
    const count = (await q.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_held WHERE customer_id = $1', [customerId])).rows[0]!.n;
    await audit(q, { actorId: userId, action: 'update', entity: 'customer', count: 1, details: { customer_id: customerId, webhook: 'resumed', held: count } });
    await ctx.jobs.sendIn(q, WEBHOOK_DRAIN_QUEUE, { customer: customerId });
    q.afterCommit(async () => ctx.jobs.wake(WEBHOOK_DRAIN_QUEUE));
    return count;
  });
  return { held, message: held === 0 ? 'Webhook repris' : `Webhook repris : ${held} livraison(s) en attente envoyée(s) dans l'ordre` };
}

/** Takes (or renews) the customer's drain lease: one instance at a time sends its kept deliveries. */
async function takeLease(db: Db, customerId: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE customers SET webhook_drain_at = now()
      WHERE id = $1 AND webhook_paused_at IS NULL AND (webhook_drain_at IS NULL OR webhook_drain_at < now() - make_interval(secs => $2))`,
    [customerId, DRAIN_LEASE_SECONDS],
  );
  return rowCount === 1;
}

/**
 * Sends the customer's kept webhook deliveries one at a time, oldest first, each removed once
 * done. A failure is thrown (the drain is retried with the webhook's backoff, from the same
 * delivery); a pause again stops it. Whoever keeps a delivery behind the backlog queues a drain
 * after its commit: a drain that finds the lease taken leaves it to the holder, which looks again
 * after releasing it.
 */
export async function drainWebhook(ctx: Pick<AppContext, 'db' | 'mailer' | 'jobs' | 'config'>, customerId: number): Promise<void> {
  const { db } = ctx;
  while (await takeLease(db, customerId)) {
    try {
      for (;;) {
        const { rows } = await db.query<{ lead_id: number; report_id: number }>(
          `SELECT h.lead_id::float8 AS lead_id, h.report_id FROM webhook_held h JOIN customers c ON c.id = h.customer_id
            WHERE h.customer_id = $1 AND c.webhook_paused_at IS NULL ORDER BY h.queued_at, h.lead_id LIMIT 1`,
          [customerId],
        );
        const next = rows[0];
        if (!next) break;
        const job = { lead: next.lead_id, report: next.report_id, channel: 'webhook' as const };
        if ((await attemptDelivery(ctx, job, { kept: true })) === 'kept') return;
        await db.query('DELETE FROM webhook_held WHERE lead_id = $1 AND report_id = $2', [job.lead, job.report]);
        await db.query('UPDATE customers SET webhook_drain_at = now() WHERE id = $1', [customerId]);
      }
    } finally {
      await db.query('UPDATE customers SET webhook_drain_at = NULL WHERE id = $1', [customerId]);
    }
    const { rows } = await db.query<{ waiting: boolean }>('SELECT EXISTS (SELECT 1 FROM webhook_held WHERE customer_id = $1) AS waiting', [customerId]);
    if (!rows[0]!.waiting) return;
  }
}

export function registerWebhookJobs(ctx: AppContext) {
  ctx.jobs.register(WEBHOOK_DRAIN_QUEUE, ({ customer }) => drainWebhook(ctx, customer));
}
