import { z } from 'zod';
import { queryInt } from '../ids';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Date invalide (AAAA-MM-JJ)');
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/**
 * GET /api/audit (admin) and GET /api/audit/export.csv: the filters, each optional. `actor` is an
 * account id; `from` and `to` are days of Paris time, both included. Paging: `_cursor`, from the
 * previous page's `next_cursor`.
 */
export const auditQuery = z.object({
  actor: optional(queryInt(1, 2_147_483_647, 'Compte invalide')),
  action: optional(z.string().max(100)),
  entity: optional(z.string().max(100)),
  from: optional(day),
  to: optional(day),
  _cursor: optional(z.string().max(1000)),
  _limit: queryInt(1, 500, 'Nombre de résultats entre 1 et 500').default(100),
});
export type AuditQuery = z.input<typeof auditQuery>;

/** One row of the log: who (null: nobody signed in, or a deleted account), did what, when, on what, from which address. */
const auditRow = z.object({
  id: z.number(),
  at: z.string(),
  actor: z.object({ id: z.number(), name: z.string(), email: z.string() }).nullable(),
  action: z.string(),
  entity: z.string(),
  count: z.number(),
  details: z.record(z.string(), z.unknown()),
  address: z.string().nullable(),
});
export type AuditRow = z.infer<typeof auditRow>;

/** Newest first. `actions` and `entities`: every value the log holds, for the filters. */
export const auditResponse = z.object({
  data: z.array(auditRow),
  next_cursor: z.string().nullable(),
  actions: z.array(z.string()),
  entities: z.array(z.string()),
});
export type AuditResponse = z.infer<typeof auditResponse>;

/** The query string of both routes; empty filters are left out. */
export function auditSearchParams(query: AuditQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  return params;
}
