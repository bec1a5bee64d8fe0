import { createHash, createHmac } from 'node:crypto';
import type { Landing } from '../../../src/api/landings/contract';
import type { Config } from '../../config';
import type { Db, Queryable } from '../../db/connection';
import { defineQueue, type Jobs } from '../jobs';
import type { Mailer } from '../mail';
import { own } from '../leads/normalize';
import { returnUrl } from '../sales/return-links';
import { standardWebhookHeaders } from './standard-webhooks';
import { keepWebhookDelivery, WEBHOOK_DRAIN_QUEUE, webhookFailed, webhookSucceeded } from './webhook-pause';

type Channel = 'mail' | 'webhook';
export interface DeliveryJob {
  lead: number;
  report: number;
  channel: Channel;
}

/**
 * Retries with exponential backoff (pg-boss: about retryDelay × 2^n seconds, jittered): mail
 * about 10 s → 1.5 h over 9 retries; a webhook 1 s → 1–2 h over 12, as a receiver may be down a while.
 */
const retries: Record<Channel, { retryLimit: number; retryDelay: number }> = {
  mail: { retryLimit: 9, retryDelay: 10 },
  webhook: { retryLimit: 12, retryDelay: 1 },
};

/**
 * A delivery still active this long after it started died with its instance (a webhook waits 10 s
 * at most): failed then and retried by pg-boss's maintenance; a sent delivery is never sent again.
 */
const EXPIRE_SECONDS = 120;

/** Mail and webhook deliveries of sold leads: retried with their channel's backoff. */
export const DELIVER_QUEUE = defineQueue<DeliveryJob>('live.deliver', (job) => ({
  ...retries[job.channel],
  retryBackoff: true,
  expireInSeconds: EXPIRE_SECONDS,
}));

/** The job id of a lead's delivery on one channel for one report: queuing it twice queues it once. */
function jobId(job: DeliveryJob): string {
  const h = createHash('sha256').update(`live:${job.channel}:${job.lead}:${job.report}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Queues the mails (and the webhooks of customers that have one) of delivered leads, in the delivering transaction, in one statement. */
export async function queueDeliveries(q: Queryable, jobs: Jobs, sold: Array<{ lead: number; report: number; webhook: boolean }>) {
  const list = sold.flatMap(({ lead, report, webhook }) =>
    (webhook ? (['mail', 'webhook'] as const) : (['mail'] as const)).map((channel) => {
      const data: DeliveryJob = { lead, report, channel };
      return { data, id: jobId(data) };
    }),
  );
  await jobs.sendManyIn(q, DELIVER_QUEUE, list);
}

interface Delivered {
  lead: Record<string, unknown> & { id: number; landing_id: number; created_at: string; data: Record<string, unknown> };
  landing: Pick<Landing, 'id' | 'name' | 'columns'>;
  /** Attempts already made on this channel, and whether one was sent. */
  attempts: number;
  sent: boolean;
  customer: { id: number; name: string; email: string; webhook_url: string | null; webhook_secret: string | null };
  rule: { id: number; name: string };
  report: { id: number; date: string };
  /** The sale delivered: its return link. */
  sale_id: number;
}

/** What each job delivers, in one statement for a batch (by the jobs' order; undefined: nothing to deliver any more). */
async function loadDeliveries(q: Queryable, jobs: DeliveryJob[]): Promise<Array<Delivered | undefined>> {
  const { rows } = await q.query<Delivered & { i: number }>(
    `SELECT j.i::int - 1 AS i,
            json_build_object('id', l.id, 'landing_id', l.landing_id, 'created_at', to_char(l.created_at AT TIME ZONE 'Europe/Paris', 'YYYY-MM-DD HH24:MI:SS'),
              'source', l.source, 'utm_source', l.utm_source, 'utm_medium', l.utm_medium, 'utm_campaign', l.utm_campaign,
              'departement', l.departement, 'zone_climatique', l.zone_climatique, 'data', l.data) AS lead,
            json_build_object('id', c.id, 'name', c.name, 'email', c.email, 'webhook_url', c.webhook_url, 'webhook_secret', c.webhook_secret) AS customer,
            json_build_object('id', r.id, 'name', r.name) AS rule,
            json_build_object('id', rep.id, 'date', rep.date) AS report,
            json_build_object('id', ld.id, 'name', ld.name, 'columns', ld.columns) AS landing, s.id::int AS sale_id,
            (SELECT count(*)::int FROM deliveries d WHERE d.lead_id = l.id AND d.report_id = rep.id AND d.channel = j.channel) AS attempts,
            EXISTS (SELECT 1 FROM deliveries d WHERE d.lead_id = l.id AND d.report_id = rep.id AND d.channel = j.channel AND d.status = 'sent') AS sent
       FROM unnest($1::bigint[], $2::int[], $3::text[]) WITH ORDINALITY AS j (lead, report, channel, i)
       JOIN leads l ON l.id = j.lead JOIN landings ld ON ld.id = l.landing_id
       JOIN reports rep ON rep.id = j.report JOIN rules r ON r.id = rep.rule_id JOIN customers c ON c.id = r.customer_id
       JOIN LATERAL (SELECT s.id FROM lead_sales s WHERE s.lead_id = l.id AND s.report_id = j.report AND s.returned_at IS NULL ORDER BY s.id DESC LIMIT 1) s ON true
      WHERE l.rapport_id = j.report OR l.entry_status <> 'new'`,
    [jobs.map((j) => j.lead), jobs.map((j) => j.report), jobs.map((j) => j.channel)],
  );
  const found: Array<Delivered | undefined> = jobs.map(() => undefined);
  for (const { i, ...d } of rows) found[i] = d;
  return found;
}

/** The lead's form values under their labels, in the landing's order, then where it came from. */
function leadFields(landing: Delivered['landing'], lead: Delivered['lead']): Array<[string, string]> {
  const fields: Array<[string, string]> = [];
  for (const c of landing.columns) {
    const v = own(lead.data, c.key);
    if (v !== null && v !== undefined && v !== '') fields.push([c.label, String(v)]);
  }
  fields.push(['Département', String(lead.departement || '—')], ['Source', String(lead.source)], ['Reçu le', lead.created_at]);
  return fields;
}

/** The JSON a webhook receives, signed by the Standard Webhooks headers (and `X-Lead-Signature: sha256=<hex HMAC-SHA256 of this body>`). */
function webhookBody(d: Delivered, config: Config) {
  const { data, landing_id: _landing, ...fixed } = d.lead;
  return JSON.stringify({
    event: 'lead.delivered',
    delivery_id: `${d.lead.id}-${d.report.id}`,
    lead: { ...fixed, landing: { id: d.landing.id, name: d.landing.name }, fields: data },
    rule: d.rule,
    report: d.report,
    return_url: returnUrl(config, d.sale_id),
  });
}

class DeliveryFailed extends Error {
  constructor(
    message: string,
    readonly httpStatus: number | null = null,
  ) {
    super(message);
  }
}

async function postWebhook(d: Delivered, config: Config) {
  // Signed with '' a body proves nothing to its receiver: refused (retried, as a saved customer gets a secret).
  if (!d.customer.webhook_secret) throw new DeliveryFailed("Webhook sans secret : la livraison ne peut pas être signée, elle n'est pas envoyée");
  const body = webhookBody(d, config);
  // The same delivery id on every retry: the receiver can drop a repeat.
  const delivery = `${d.lead.id}-${d.report.id}`;
  const signature = createHmac('sha256', d.customer.webhook_secret).update(body).digest('hex');
  let res: Response;
  try {
    res = await fetch(d.customer.webhook_url!, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'lead-console-webhook/1',
        ...standardWebhookHeaders(d.customer.webhook_secret, delivery, body),
        // Kept for the receivers that check them, for one release (docs/api.md).
        'x-lead-signature': `sha256=${signature}`,
        'x-lead-delivery': delivery,
      },
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(10_000),
    });
  } catch (err) {
    const cause = (err as Error).name === 'TimeoutError' ? 'pas de réponse en 10 s' : ((err as { cause?: Error }).cause?.message ?? (err as Error).message);
    throw new DeliveryFailed(`Webhook injoignable : ${cause}`);
  }
  await res.body?.cancel();
  if (!res.ok) throw new DeliveryFailed(`Le webhook a répondu ${res.status}`, res.status);
  return res.status;
}

async function sendMail(mailer: Mailer, config: Config, d: Delivered) {
  const landing = d.landing;
  const lines = leadFields(landing, d.lead).map(([label, value]) => `${label} : ${value}`);
  await mailer.send({
    to: d.customer.email,
    subject: `Nouveau lead ${landing.name} (n° ${d.lead.id})`,
    text: [
      `Bonjour ${d.customer.name},`,
      '',
      `Un nouveau lead vous est attribué par la règle « ${d.rule.name} » :`,
      '',
      ...lines,
      '',
      `Pour retourner ce lead (faux numéro, injoignable…) dans votre délai de retour : ${returnUrl(config, d.sale_id)}`,
      '',
    ].join('\n'),
  });
}

/**
 * Deliveries of a batch attempted at once: mails open an SMTP connection each, and every attempt
 * takes a database connection (10 in a PostgreSQL instance's pool, shared with the requests).
 */
const DELIVER_AT_ONCE = 5;

/**
 * The delivery jobs fetched together: read in one statement, then attempted DELIVER_AT_ONCE at a
 * time, each with its own outcome; a customer's webhooks one after the other, as they came (its
 * 10th failure in a row pauses it: no 11th post may be under way then). Already sent (a repeated
 * or restarted job) → nothing. Every attempt is logged; a failure is logged then thrown, and
 * pg-boss retries that job alone later with backoff. A webhook whose customer's webhook is paused
 * is kept instead, and sent in order once an admin resumes it (webhook-pause.ts, webhook-resume.ts).
 */
export async function deliverBatch(ctx: DeliverContext, jobs: DeliveryJob[]): Promise<PromiseSettledResult<unknown>[]> {
  const found = await loadDeliveries(ctx.db, jobs);
  const runs = new Map<string, number[]>();
  for (const [i, job] of jobs.entries()) {
    const key = job.channel === 'webhook' && found[i] ? `webhook ${found[i].customer.id}` : `job ${i}`;
    runs.set(key, [...(runs.get(key) ?? []), i]);
  }
  const queue = [...runs.values()];
  const outcomes: PromiseSettledResult<unknown>[] = [];
  const lane = async () => {
    for (let run = queue.shift(); run; run = queue.shift())
      for (const i of run) [outcomes[i]] = await Promise.allSettled([attempt(ctx, jobs[i]!, found[i], { kept: false })]);
  };
  await Promise.all(Array.from({ length: DELIVER_AT_ONCE }, lane));
  return outcomes;
}

type DeliverContext = { db: Db; mailer: Mailer; config: Config; jobs: Pick<Jobs, 'send'> };

/**
 * `kept`: the attempt sends a delivery kept while the webhook was paused (the drain, in order).
 * Answers 'kept' when the delivery waits in webhook_held, 'done' otherwise.
 */
export async function attemptDelivery(ctx: DeliverContext, job: DeliveryJob, { kept }: { kept: boolean }): Promise<'kept' | 'done'> {
  return attempt(ctx, job, (await loadDeliveries(ctx.db, [job]))[0], { kept });
}

async function attempt(ctx: DeliverContext, job: DeliveryJob, d: Delivered | undefined, { kept }: { kept: boolean }): Promise<'kept' | 'done'> {
  const { db } = ctx;
  // A lead deleted, or its sale returned or taken back (re-injected) since: nothing to deliver any more. A shared lead is
  // delivered for each of its sales (leads.rapport_id names only the latest).
  if (!d || d.sent || (job.channel === 'webhook' && !d.customer.webhook_url)) return 'done';
  if (job.channel === 'webhook' && !kept) {
    const waiting = await keepWebhookDelivery(db, job);
    if (waiting?.live) await ctx.jobs.send(WEBHOOK_DRAIN_QUEUE, { customer: waiting.customer });
    if (waiting) return 'kept';
  }
  const attempt = d.attempts + 1;
  const target = job.channel === 'mail' ? d.customer.email : d.customer.webhook_url!;
  const log = (q: Queryable, status: 'sent' | 'failed', httpStatus: number | null, error: string | null, willRetry: boolean) =>
    q.query(
      `INSERT INTO deliveries (lead_id, report_id, channel, attempt, status, target, http_status, error, will_retry)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
      [job.lead, job.report, job.channel, attempt, status, target, httpStatus, error, willRetry],
    );
  try {
    const httpStatus = job.channel === 'mail' ? (await sendMail(ctx.mailer, ctx.config, d), null) : await postWebhook(d, ctx.config);
    await log(db, 'sent', httpStatus, null, false);
    if (job.channel === 'webhook') await webhookSucceeded(db, job);
    return 'done';
  } catch (err) {
    const failure = err instanceof DeliveryFailed ? err : new DeliveryFailed(`Envoi impossible : ${(err as Error).message}`);
    const logged = (q: Queryable) => log(q, 'failed', failure.httpStatus, failure.message.slice(0, 500), attempt <= retries[job.channel].retryLimit);
    if (job.channel === 'mail') await logged(db);
    // The 10th webhook failure in a row pauses the webhook and keeps this delivery: no retry then.
    else if (await db.tx(async (q) => (await logged(q), webhookFailed(q, job)))) return 'kept';
    throw failure;
  }
}
