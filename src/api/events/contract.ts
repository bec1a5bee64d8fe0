import { z } from 'zod';
import { queryInt } from '../ids';
import { entryStatus } from '../leads/contract';

/**
 * The live events of GET /api/events (issue 28): each written in the transaction of its change,
 * with a strictly increasing id, streamed as server-sent events (`id:` the event id, `event:` its
 * type, `data:` the whole event as JSON). A user receives only what its role may see.
 */

/** Who made a change: null when nobody signed in did (the engine, an intake, a job). */
const actor = z.object({ id: z.number(), name: z.string() }).nullable();
const named = z.object({ id: z.number(), name: z.string() });

const common = { id: z.number(), at: z.string() };

/** A lead arrived on a landing by its form, new or a duplicate (every role). */
const leadCreated = z.object({
  ...common,
  type: z.literal('lead.created'),
  data: z.object({ landing_id: z.number(), lead_id: z.number(), departement: z.string(), entry_status: entryStatus }),
});

/** Leads of one landing that came in one status, counted (`count`, their ids between `first_id` and `last_id`) instead of one event per lead. */
const leadBatch = z.object({ landing_id: z.number(), entry_status: entryStatus, count: z.number(), first_id: z.number(), last_id: z.number(), by: actor });

/** Leads of one landing imported in one status (every role): one event per status an import gave, however many rows it had. */
const leadsImported = z.object({ ...common, type: z.literal('leads.imported'), data: leadBatch });

/**
 * Archived leads of one landing back in one status (every role): one event per landing and status
 * a month's restore brought back (`by` null when run from the command line). They keep their ids:
 * old ones, below any list's ceiling.
 */
const leadsRestored = z.object({ ...common, type: z.literal('leads.restored'), data: leadBatch });

/** Leads of one landing left one status for another (every role); a bulk change spanning several landings or statuses writes one event per group. */
const leadsStatus = z.object({
  ...common,
  type: z.literal('leads.status'),
  data: z.object({ landing_id: z.number(), ids: z.array(z.number()), from: entryStatus, to: entryStatus, by: actor }),
});

/** Leads of one landing deleted for good (every role). */
const leadsDeleted = z.object({
  ...common,
  type: z.literal('leads.deleted'),
  data: z.object({ landing_id: z.number(), ids: z.array(z.number()), from: entryStatus, by: actor }),
});

/** Leads of one landing converted: they are now 'converted', their copies new on `to_landing_id` (every role). */
const leadsConverted = z.object({
  ...common,
  type: z.literal('leads.converted'),
  data: z.object({
    landing_id: z.number(),
    ids: z.array(z.number()),
    from: entryStatus,
    to_landing_id: z.number(),
    copy_ids: z.array(z.number()),
    by: actor,
  }),
});

/** A lead sold to a customer, live or by an export (admins). */
const leadSold = z.object({
  ...common,
  type: z.literal('lead.sold'),
  data: z.object({
    lead_id: z.number(),
    landing_id: z.number(),
    sale_id: z.number(),
    customer: named,
    rule: named.nullable(),
    channel: z.enum(['live', 'export']),
  }),
});

/** A sale returned by its customer; the lead is new again (admins). */
const leadReturned = z.object({
  ...common,
  type: z.literal('lead.returned'),
  data: z.object({ lead_id: z.number(), landing_id: z.number(), sale_id: z.number(), customer: named }),
});

/** A rule's fill changed: its count today and what it sold in the windows it caps (admins). */
const ruleFill = z.object({
  ...common,
  type: z.literal('rule.fill'),
  data: z.object({
    rule_id: z.number(),
    customer_id: z.number(),
    today: z.object({ count: z.number(), leads_number: z.number() }),
    sold: z.object({ hour: z.number().nullable(), week: z.number().nullable(), month: z.number().nullable() }),
  }),
});

/** An export's file is ready (its author, and admins). */
const exportReady = z.object({
  ...common,
  type: z.literal('export.ready'),
  data: z.object({ export_id: z.number(), user_id: z.number() }),
});

/** An alert was raised (admins): the bell reads its count again. */
const notification = z.object({
  ...common,
  type: z.literal('notification'),
  data: z.object({ alert_id: z.number(), kind: z.string() }),
});

/** Who is looking at a place (a landing's tab): sent to those there when someone comes or goes. */
const presence = z.object({
  ...common,
  type: z.literal('presence'),
  data: z.object({ place: z.string(), users: z.array(named.extend({ initials: z.string() })) }),
});

/** The events after the client's last id were purged (older than the retention): the client reloads what it shows. */
const reload = z.object({ ...common, type: z.literal('reload'), data: z.object({ reason: z.literal('gap') }) });

export const liveEvent = z.discriminatedUnion('type', [
  leadCreated,
  leadsImported,
  leadsRestored,
  leadsStatus,
  leadsDeleted,
  leadsConverted,
  leadSold,
  leadReturned,
  ruleFill,
  exportReady,
  notification,
  presence,
  reload,
]);
export type LiveEvent = z.infer<typeof liveEvent>;
export type LiveEventType = LiveEvent['type'];
export type LiveEventOf<T extends LiveEventType> = Extract<LiveEvent, { type: T }>;

/**
 * GET /api/events: `after` resumes after that event id (as the `Last-Event-ID` header does, which
 * wins); `place` says where the user is (`landing:3/new`): it then receives the `presence` events of that place.
 */
export const eventsQuery = z.object({
  after: queryInt(0, Number.MAX_SAFE_INTEGER, "Identifiant d'événement invalide").optional(),
  place: z
    .string()
    .regex(/^[a-z]+:[A-Za-z0-9_/-]{1,100}$/, 'Lieu invalide (par exemple landing:3/new)')
    .optional(),
});
