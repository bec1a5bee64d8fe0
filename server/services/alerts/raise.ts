import type { AlertKind, CapSpan } from '../../../src/api/notifications/contract';
import type { Queryable } from '../../db/connection';

/** An alert and the ids of its subject, by kind: what the console and the digest mail show. */
export type Alert =
  | { kind: 'webhook_paused'; customerId: number }
  | { kind: 'cap_reached'; ruleId: number; span: CapSpan }
  | { kind: 'budget_reached'; customerId: number }
  | { kind: 'return_rate_exceeded'; customerId: number; rate: number }
  | { kind: 'export_failed'; exportId: number; userId: number };

/** The params column of each kind, in the API's snake case. */
function paramsOf(alert: Alert): Record<string, number | string> {
  switch (alert.kind) {
    case 'webhook_paused':
    case 'budget_reached':
      return { customer_id: alert.customerId };
    case 'cap_reached':
      return { rule_id: alert.ruleId, span: alert.span };
    case 'return_rate_exceeded':
      return { customer_id: alert.customerId, rate: alert.rate };
    case 'export_failed':
      return { export_id: alert.exportId, user_id: alert.userId };
  }
}

/**
 * Records an alert for every admin, with `q`, the transaction of its cause: the alert exists iff
 * that commits, with its `notification` event (the bell's live count). The console lists it at once; the digest mail of its kind carries it within the hour.
 */
export async function raiseAlert(q: Queryable, alert: Alert): Promise<number> {
  const kind: AlertKind = alert.kind;
  const { rows } = await q.query<{ id: string }>(
    `WITH raised AS (INSERT INTO alerts (kind, params) VALUES ($1, $2) RETURNING id),
          told AS (INSERT INTO events (type, audience, data) SELECT 'notification', 'admins', jsonb_build_object('alert_id', id, 'kind', $1::text) FROM raised)
     SELECT id FROM raised`,
    [kind, JSON.stringify(paramsOf(alert))],
  );
  return Number(rows[0]!.id);
}
