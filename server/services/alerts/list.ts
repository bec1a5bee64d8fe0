import type { z } from 'zod';
import type { Notification, notificationsQuery, NotificationsResponse, notificationsReadRequest } from '../../../src/api/notifications/contract';
import type { Db, Queryable } from '../../db/connection';
import { notFound } from '../../errors';

interface AlertRow {
  id: number;
  kind: Notification['kind'];
  params: Record<string, number | string>;
  created_at: string;
  read: boolean;
  customer_name: string | null;
  rule_name: string | null;
  rule_customer_id: number | null;
  user_name: string | null;
}

/**
 * Whether the admin `user` (a SQL expression) read alert `a`: marked read, or raised before the
 * account became an admin (a new or promoted admin does not inherit the backlog as unread).
 */
const readBy = (user: string) =>
  `EXISTS (SELECT 1 FROM alert_reads r WHERE r.alert_id = a.id AND r.user_id = ${user})
     OR a.created_at < (SELECT coalesce(admin_since, created_at) FROM users WHERE id = ${user})`;

/** Alerts with the names of their subjects (null once deleted) and whether `userId` read them. */
export async function loadAlerts(q: Queryable, userId: number | null, where: string, values: unknown[], limit: number): Promise<Notification[]> {
  const { rows } = await q.query<AlertRow>(
    `SELECT a.id::float8 AS id, a.kind, a.params, to_json(a.created_at) #>> '{}' AS created_at,
            (${readBy('$1')}) IS TRUE AS read,
            c.name AS customer_name, ru.name AS rule_name, ru.customer_id AS rule_customer_id, u.name AS user_name
       FROM alerts a
       LEFT JOIN customers c ON c.id = (a.params->>'customer_id')::int
       LEFT JOIN rules ru ON ru.id = (a.params->>'rule_id')::int
       LEFT JOIN users u ON u.id = (a.params->>'user_id')::int
      WHERE ${where} ORDER BY a.id DESC LIMIT ${Number(limit)}`,
    [userId, ...values],
  );
  return rows.map(toNotification);
}

function toNotification(r: AlertRow): Notification {
  const common = { id: r.id, created_at: r.created_at, read: r.read };
  const p = r.params;
  switch (r.kind) {
    case 'webhook_paused':
    case 'budget_reached':
      return { ...common, kind: r.kind, customer: { id: Number(p.customer_id), name: r.customer_name } };
    case 'return_rate_exceeded':
      return { ...common, kind: r.kind, customer: { id: Number(p.customer_id), name: r.customer_name }, rate: Number(p.rate) };
    case 'cap_reached':
      return {
        ...common,
        kind: r.kind,
        rule: { id: Number(p.rule_id), name: r.rule_name, customer_id: r.rule_customer_id },
        span: p.span as Extract<Notification, { kind: 'cap_reached' }>['span'],
      };
    case 'export_failed':
      return { ...common, kind: r.kind, export: { id: Number(p.export_id), user_id: Number(p.user_id) }, user: { id: Number(p.user_id), name: r.user_name } };
  }
}

async function unreadCount(q: Queryable, userId: number): Promise<number> {
  const { rows } = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM alerts a WHERE (${readBy('$1')}) IS NOT TRUE`, [userId]);
  return rows[0]!.n;
}

/** GET /api/notifications: a page of alerts, newest first, and this admin's unread count. */
export async function listNotifications(db: Queryable, userId: number, query: z.output<typeof notificationsQuery>): Promise<NotificationsResponse> {
  const page = await loadAlerts(db, userId, '($2::float8 IS NULL OR a.id < $2)', [query.before ?? null], query.limit + 1);
  const data = page.slice(0, query.limit);
  return { data, unread: await unreadCount(db, userId), next_before: page.length > query.limit ? data[data.length - 1]!.id : null };
}

/** POST /api/notifications/read: all or nothing; an id that names no alert → 404 and nothing marked. */
export async function markRead(db: Db, userId: number, input: z.output<typeof notificationsReadRequest>): Promise<{ unread: number; message: string }> {
  return db.tx(async (q) => {
    if ('all' in input) {
      await q.query('INSERT INTO alert_reads (alert_id, user_id) SELECT id, $1 FROM alerts ON CONFLICT DO NOTHING', [userId]);
      return { unread: await unreadCount(q, userId), message: 'Toutes les notifications sont lues' };
    }
    const ids = [...new Set(input.ids)];
    const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM alerts WHERE id = ANY($1::int8[])', [ids]);
    if (rows[0]!.n !== ids.length) throw notFound('Notification introuvable');
    await q.query('INSERT INTO alert_reads (alert_id, user_id) SELECT unnest($1::int8[]), $2 ON CONFLICT DO NOTHING', [ids, userId]);
    return { unread: await unreadCount(q, userId), message: ids.length === 1 ? 'Notification lue' : `${ids.length} notifications lues` };
  });
}
