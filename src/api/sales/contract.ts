import { z } from 'zod';

/** One sale of a lead: to a customer, live by a rule (its day's report) or by an export ('Vendu à'). */
const leadSale = z.object({
  id: z.number(),
  lead_id: z.number(),
  customer: z.object({ id: z.number(), name: z.string() }),
  /** The rule that sold it live (deleted rules keep their name), or the report's rule of an export made from a report; null otherwise. */
  rule: z.object({ id: z.number(), name: z.string() }).nullable(),
  report_id: z.number().nullable(),
  export_id: z.number().nullable(),
  channel: z.enum(['live', 'export']),
  price_cents: z.number(),
  /** ISO 8601. */
  sold_at: z.string(),
  returned_at: z.string().nullable(),
  /** Why it was returned: the customer's reason, or 'reinjected' (an export taken back); null while sold. */
  return_reason: z.enum(['wrong_number', 'unreachable', 'duplicate', 'out_of_area', 'already_customer', 'other', 'reinjected']).nullable(),
});
export type LeadSale = z.infer<typeof leadSale>;

/** GET /api/landings/data/:id/sales/:leadId (admin): every sale of a lead of that landing, oldest first; GET /api/rapports/:id/sales: the sales of a day's report. */
export const leadSalesResponse = z.object({ data: z.array(leadSale) });

/** Why a customer sends a lead back (docs/product.md, issue 26): 'other' needs a comment. */
export const returnReason = z.enum(['wrong_number', 'unreachable', 'duplicate', 'out_of_area', 'already_customer', 'other']);
export type ReturnReason = z.infer<typeof returnReason>;

/** A return's comment: 1000 characters at most (the column's check). */
export const RETURN_COMMENT_MAX = 1000;

/**
 * POST /api/sales/:id/return (admin), and the form of a sale's public return link: a reason of
 * the list, a comment (required with 'other', blank otherwise allowed).
 */
export const saleReturnRequest = z
  .object({
    reason: returnReason,
    comment: z.string().trim().max(RETURN_COMMENT_MAX, `${RETURN_COMMENT_MAX} caractères au plus`).optional(),
  })
  .refine((r) => r.reason !== 'other' || !!r.comment, { path: ['comment'], message: 'Précisez la raison du retour' });
export type SaleReturnRequest = z.input<typeof saleReturnRequest>;

/** The returned sale: when, and why. */
export const saleReturnResponse = z.object({
  data: z.object({ id: z.number(), lead_id: z.number(), returned_at: z.string(), return_reason: returnReason, credit_cents: z.number() }),
});
