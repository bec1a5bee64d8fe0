import { z } from 'zod';
import { queryInt } from '../ids';

/** The kinds of alert, each with the subject it names (docs/api.md 'Notifications'). */
export const alertKinds = ['webhook_paused', 'cap_reached', 'budget_reached', 'return_rate_exceeded', 'export_failed'] as const;
export type AlertKind = (typeof alertKinds)[number];

/** The span of a rule's cap that was reached. */
const capSpans = ['hour', 'day', 'week', 'month'] as const;
export type CapSpan = (typeof capSpans)[number];

/** A subject named by an alert: its name is null once it was deleted. */
const subject = z.object({ id: z.number(), name: z.string().nullable() });

const common = { id: z.number(), created_at: z.string(), read: z.boolean() };

/** One alert as an admin sees it: its kind, its subject (customer, rule, export) and whether this admin read it. */
export const notification = z.discriminatedUnion('kind', [
  z.object({ ...common, kind: z.literal('webhook_paused'), customer: subject }),
  z.object({ ...common, kind: z.literal('cap_reached'), rule: subject.extend({ customer_id: z.number().nullable() }), span: z.enum(capSpans) }),
  z.object({ ...common, kind: z.literal('budget_reached'), customer: subject }),
  z.object({ ...common, kind: z.literal('return_rate_exceeded'), customer: subject, rate: z.number() }),
  z.object({ ...common, kind: z.literal('export_failed'), export: z.object({ id: z.number(), user_id: z.number() }), user: subject }),
]);
export type Notification = z.infer<typeof notification>;

/** GET /api/notifications: newest first, `limit` a page, the next page `before` the last id. */
export const notificationsQuery = z.object({
  before: queryInt(1, Number.MAX_SAFE_INTEGER, 'Curseur invalide').optional(),
  limit: queryInt(1, 100, 'Nombre de notifications entre 1 et 100').default(20),
});

/** A page of alerts, this admin's unread count (of every alert), the cursor of the next page (null: none). */
export const notificationsResponse = z.object({
  data: z.array(notification),
  unread: z.number(),
  next_before: z.number().nullable(),
});
export type NotificationsResponse = z.infer<typeof notificationsResponse>;

const alertId = z
  .number({ error: 'Identifiant de notification invalide' })
  .int('Identifiant de notification invalide')
  .positive('Identifiant de notification invalide')
  .max(Number.MAX_SAFE_INTEGER, 'Identifiant de notification invalide');

/** POST /api/notifications/read: some alerts (at most 500), or all of them, read by this admin. */
export const notificationsReadRequest = z.union(
  [
    z.object({ ids: z.array(alertId).min(1, 'Aucune notification choisie').max(500, '500 notifications au plus à la fois') }).strict(),
    z.object({ all: z.literal(true) }).strict(),
  ],
  { error: 'Indiquez les notifications lues, ou toutes' },
);
export type NotificationsReadRequest = z.input<typeof notificationsReadRequest>;

/** The unread count after marking. */
export const notificationsReadResponse = z.object({ unread: z.number(), message: z.string() });
