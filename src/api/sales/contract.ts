import { z } from 'zod';

/** One sale of a lead: to a customer, live by a rule (its day's report) or by an export ('Vendu à'). */
const leadSale = z.object({
  id: z.number(),
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
});
export type LeadSale = z.infer<typeof leadSale>;

/** GET /api/landings/data/:id/sales/:leadId (admin): every sale of a lead of that landing, oldest first. */
export const leadSalesResponse = z.object({ data: z.array(leadSale) });
