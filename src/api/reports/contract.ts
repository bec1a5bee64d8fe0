import { z } from 'zod';
import { bookType } from '../leads/contract';

/** A rule's report of one Paris day: the leads it delivered that day. */
export const report = z.object({
  id: z.number(),
  /** YYYY-MM-DD (Paris day). */
  date: z.string(),
  /** Ids of the leads sold that day (its lead_sales: live, or by an export made from the report), in sale order. */
  leads: z.array(z.number()),
  /** The rule's cap on that day. */
  leads_number: z.number(),
  /** How many sales the report holds (delivered that day). */
  count: z.number(),
  /** How many of them were returned since (by the customer, or re-injected). */
  returned: z.number(),
  /** What the day's sales still standing are worth: the sum of their prices, returned ones left out (integer cents, HT). */
  amount_cents: z.number(),
  /** The rule's zip list on that day (empty = everywhere). */
  zip: z.array(z.string()),
  rule_id: z.number(),
});
export type Report = z.infer<typeof report>;

/** The rule a report list belongs to (null fields when it was deleted). */
const reportRule = z.object({
  id: z.number(),
  name: z.string().nullable(),
  customer_id: z.number().nullable(),
  customer_name: z.string().nullable(),
  leads_number: z.number().nullable(),
});

/**
 * GET /api/rapports/rules/:ruleId, newest first. `export`: the latest export made from one of
 * these reports (download link), or null.
 */
export const reportsResponse = z.object({
  data: z.array(report),
  rule: reportRule,
  export: z.object({ url: z.string(), token: z.string(), filename: z.string() }).nullable(),
});
export type ReportsResponse = z.infer<typeof reportsResponse>;

/**
 * GET /api/rapports/:id/file?format=pdf|xlsx|csv|txt (default pdf): the day's delivered leads as a
 * file named `rapport-<rule>-<YYYY-MM-DD>.<format>` (Content-Disposition attachment).
 */
export const reportFileQuery = z.object({ format: bookType.default('pdf') });

/** One delivery attempt of a lead to its customer. */
const deliveryAttempt = z.object({
  id: z.number(),
  lead_id: z.number(),
  channel: z.enum(['mail', 'webhook']),
  /** 1 for the first try. */
  attempt: z.number(),
  status: z.enum(['sent', 'failed']),
  /** The address mailed or the URL posted to. */
  target: z.string(),
  /** HTTP status of a webhook answer, null for mail or no answer. */
  http_status: z.number().nullable(),
  /** Why it failed (French or the remote's words), null when sent. */
  error: z.string().nullable(),
  /** Whether another attempt follows (failed, retries left). */
  will_retry: z.boolean(),
  created_at: z.string(),
});
export type DeliveryAttempt = z.infer<typeof deliveryAttempt>;

/** GET /api/rapports/:id/deliveries: every attempt for the report's leads, newest first. */
export const deliveriesResponse = z.object({ data: z.array(deliveryAttempt) });
export type DeliveriesResponse = z.infer<typeof deliveriesResponse>;
