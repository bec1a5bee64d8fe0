import type { Queryable, Tx } from '../../db/connection';
import type { AppContext } from '../../context';
import { defineQueue } from '../jobs';
import { deliverBatch, DELIVER_QUEUE } from './deliver';
import { routeLeads } from './engine';

type OfferContext = Pick<AppContext, 'jobs' | 'log'>;

/**
 * One offer worker per instance: it takes every lead waiting as one batch, so a burst makes a
 * bigger batch, not more of them. Batches routed side by side serialise on their rules' counter
 * rows anyway (nearly every batch shares a rule or a customer with the others): with four per
 * instance, two instances at 100 intakes a second had their batches queued on `rule_windows`
 * behind each other, each holding its own counters while it waited (docs/performance.md, 'Two
 * instances'). Exactly once holds whatever the count, by the claim and the capped counter bumps.
 */
const OFFER_WORKERS = 1;
/** Mail and webhook deliveries wait on the network, not on the database. */
const DELIVER_WORKERS = 2;
/**
 * Delivery jobs a worker takes at once (read in one statement, sent a few at a time, each retried
 * alone, deliver.ts): a batch of sales is one fetch and one read instead of one each per sale.
 */
const DELIVER_BATCH = 25;
/** Leads per offer job (an import queues one job per chunk). */
const CHUNK = 500;
/**
 * Offer jobs a worker takes at once: every lead waiting (an intake queues one job per lead), routed
 * as one batch in a few set-based statements (routeLeads). A burst is one batch, not a queue.
 */
const OFFER_BATCH = 200;
/**
 * An offer job still active two minutes after it started died with its instance (routing 500 leads
 * takes seconds): failed then by pg-boss's maintenance (every minute on PostgreSQL) and retried,
 * routing being safe to repeat. Retries back off from 1 s to about 4 minutes, so that a database
 * restart does not leave the leads to the minute sweep.
 */
const OFFER_QUEUE = defineQueue<OfferJob>('live.offer', { expireInSeconds: 120, retryLimit: 8, retryDelay: 1, retryBackoff: true });

interface OfferJob {
  leads: number[];
  /** When the leads became new (ISO): offered on a later Paris day, they stay new. */
  at: string;
  /** A customer (id) never offered these leads: who returned them (a re-injected export). */
  exclude_customer_id?: number;
}

/**
 * THE entry point of live delivery: every path that makes leads `new` (intake, import, the copy
 * made by a conversion, a re-injection) calls it inside the transaction that does, and the leads
 * are offered once it commits (an after-commit hook of `db.tx`; never if it rolls back). They are
 * queued for the engine (pg-boss, worker woken at once); a worker then routes every lead waiting as
 * one batch (claimed only if still new, so offering it twice, or a lead that is not new, is harmless).
 * Leads a crash kept from being queued are found by the sweep (every minute, and at start).
 */
export function offerLeads(ctx: OfferContext, q: Tx, opts: { leads: number[]; excludeCustomerId?: number | null }): void {
  q.afterCommit(async () => {
    const at = new Date().toISOString();
    const exclude = opts.excludeCustomerId ? { exclude_customer_id: opts.excludeCustomerId } : {};
    try {
      for (let i = 0; i < opts.leads.length; i += CHUNK) await ctx.jobs.send(OFFER_QUEUE, { leads: opts.leads.slice(i, i + CHUNK), at, ...exclude });
    } catch (err) {
      // The leads are stored: the caller's answer stands, and the minute sweep offers them.
      ctx.log.error({ err, leads: opts.leads.length }, 'live delivery: offer not queued');
    }
  });
}

/** Offers, once `q` commits, every lead of a landing that is new today and was never offered (an import). */
export function offerLanding(ctx: OfferContext, q: Tx, landingId: number): void {
  q.afterCommit(async () => {
    try {
      await ctx.jobs.send(SWEEP_QUEUE, { landing: landingId });
    } catch (err) {
      ctx.log.error({ err, landing: landingId }, 'live delivery: offer not queued');
    }
  });
}

interface SweepJob {
  landing?: number;
  at_start?: boolean;
}
const SWEEP_QUEUE = defineQueue<SweepJob>('live.sweep');

/**
 * New leads of today (Paris) on landings with rules that were never offered: arrived while no
 * instance was up, or queued by none (killed between commit and queue). The minute sweep leaves
 * the last two minutes to the offer jobs; the start-up and per-landing sweeps take everything.
 * Today's leads are read from leads_list_idx before they are ordered: asked for the first ids in
 * order, the planner read the whole table by its primary key, today's leads being its last
 * (docs/performance.md).
 */
async function sweep(ctx: AppContext, job: SweepJob) {
  const minAge = job.at_start || job.landing ? '0 seconds' : '2 minutes';
  for (let after = 0; ;) {
    const { rows } = await ctx.db.query<{ id: number }>(
      `WITH today AS MATERIALIZED (
         SELECT l.id FROM leads l
          WHERE l.landing_id IN (SELECT DISTINCT landing_id FROM rule_targets WHERE $1::int IS NULL OR landing_id = $1)
            AND l.entry_status = 'new'
            AND l.created_at >= (date_trunc('day', now() AT TIME ZONE 'Europe/Paris') AT TIME ZONE 'Europe/Paris')
            AND l.created_at < now() - $2::interval AND l.id > $3)
       SELECT t.id FROM today t WHERE NOT EXISTS (SELECT 1 FROM lead_routings r WHERE r.lead_id = t.id)
        ORDER BY t.id LIMIT ${CHUNK}`,
      [job.landing ?? null, minAge, after],
    );
    if (rows.length === 0) return;
    await routeLeads(ctx, { leads: rows.map((r) => r.id), offeredAt: new Date() });
    after = rows[rows.length - 1].id;
  }
}

const PRUNE_WINDOWS_QUEUE = defineQueue('live.prune-windows');

/**
 * Drops the counters of windows that ended long ago (a month's started over 62 days ago ended
 * 31 days ago at least): only the current hour, week and month are ever read. Answers how many went.
 */
export async function pruneWindows(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM rule_windows WHERE start < (now() AT TIME ZONE 'Europe/Paris') - interval '62 days'`);
  return rowCount ?? 0;
}

/** The engine's queues: offers, deliveries (mail, webhook), the sweep and the windows' pruning. */
export function registerDeliveryJobs(ctx: AppContext) {
  ctx.jobs.registerBatch(
    OFFER_QUEUE,
    async (batch) =>
      void (await routeLeads(ctx, {
        offers: batch.map((job) => ({ leads: job.leads, offeredAt: new Date(job.at), excludeCustomerId: job.exclude_customer_id ?? null })),
      })),
    { batchSize: OFFER_BATCH, pollingIntervalSeconds: 0.5, workers: OFFER_WORKERS },
  );
  ctx.jobs.registerEach(DELIVER_QUEUE, (batch) => deliverBatch(ctx, batch), { batchSize: DELIVER_BATCH, workers: DELIVER_WORKERS });
  ctx.jobs.register(SWEEP_QUEUE, (job) => sweep(ctx, job), { cron: '* * * * *', atStart: true });
  ctx.jobs.register(PRUNE_WINDOWS_QUEUE, () => pruneWindows(ctx.db).then(() => undefined), { cron: '50 2 * * *' });
}
