import { z } from 'zod';
import { priceCents } from '../customers/contract';
import { maxSerialId, queryInt } from '../ids';
import { landingRef } from '../landings/contract';

export const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof weekdays)[number];

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Heure invalide (HH:mm)');

/** Hour window in Europe/Paris time, both ends included; an end before the start spans midnight. */
const ruleHours = z.object({ start: hhmm, end: hhmm });

/**
 * A `zip` entry: a 5-digit postal code ('30000'), or a department number ('30', '2A', '2B',
 * '971'…'976'); stored upper-case. A postal code matches the lead's postal code, a department the
 * lead's department (derived from its postal code).
 */
export const zipEntry = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^(\d{5}|0[1-9]|1\d|2[1-9]|[3-8]\d|9[0-5]|2A|2B|97[1-8]|98[4-8])$/, 'Code postal (5 chiffres) ou département (30, 2A, 971) invalide');

/** A landing id of a rule: beyond int4 it names no landing (422, not a database error). */
const landingId = z.number().int().positive().max(maxSerialId, 'Landing inconnue');

/** Landings of a rule: ids, or `{ id, name }` objects as the lead screens hold them. */
const ruleLandings = z
  .array(z.union([landingId, z.object({ id: landingId }).transform((l) => l.id)]))
  .min(1, 'Choisissez au moins une landing')
  .max(500)
  .transform((ids) => [...new Set(ids)]);

const leadsNumber = z
  .number({ error: 'Nombre de leads par jour entre 1 et 10 000' })
  .int('Nombre de leads par jour entre 1 et 10 000')
  .min(1, 'Nombre de leads par jour entre 1 et 10 000')
  .max(10_000, 'Nombre de leads par jour entre 1 et 10 000');

/** A cap of one window (hour, ISO week, month), or null: no cap on that window. */
const windowCap = z
  .number({ error: 'Plafond entre 1 et 1 000 000, ou vide' })
  .int('Plafond entre 1 et 1 000 000, ou vide')
  .min(1, 'Plafond entre 1 et 1 000 000, ou vide')
  .max(1_000_000, 'Plafond entre 1 et 1 000 000, ou vide')
  .nullable();

export const capWindows = ['hour', 'week', 'month'] as const;
export type CapWindow = (typeof capWindows)[number];

/**
 * Caps beside the day's `leads_number`, on the Paris wall clock: the hour, the ISO week (Monday
 * to Sunday), the calendar month; null: no cap. A cap looser than another binds nothing (a week
 * cap below the day's is accepted: the week's binds first, the form says so).
 */
const ruleCaps = z.object({ hour: windowCap.default(null), week: windowCap.default(null), month: windowCap.default(null) });
export type RuleCaps = z.infer<typeof ruleCaps>;

const priority = z.number({ error: 'Priorité entre 1 et 9' }).int('Priorité entre 1 et 9').min(1, 'Priorité entre 1 et 9').max(9, 'Priorité entre 1 et 9');
const weight = z
  .number({ error: 'Poids entre 1 et 10 000, ou vide' })
  .int('Poids entre 1 et 10 000, ou vide')
  .min(1, 'Poids entre 1 et 10 000, ou vide')
  .max(10_000, 'Poids entre 1 et 10 000, ou vide')
  .nullable();

/** Lead columns a filter may name beside the landing's form columns; compared as text. */
export const leadFilterColumns = ['source', 'utm_source', 'utm_medium', 'utm_campaign'] as const;

export type FilterOp = 'eq' | 'neq' | 'in' | 'not_in' | 'gte' | 'lte' | 'between' | 'age_between';

const filterColumn = z.string({ error: 'Colonne requise' }).trim().min(1, 'Colonne requise').max(100, 'Colonne inconnue');
const filterScalar = z.union([z.string().trim().min(1, 'Valeur requise').max(200, 'Valeur trop longue (200 caractères au plus)'), z.number().finite()], {
  error: 'Valeur requise (texte ou nombre)',
});

/**
 * A filter on a lead: `eq`/`neq`/`gte`/`lte` take one value, `in`/`not_in` a list of texts,
 * `between`/`age_between` a `[min, max]` pair. Which operators fit which column, and the values'
 * form (numbers, YYYY-MM-DD dates, whole years), depend on the landings' column types: checked
 * against every landing of the rule (ruleFilterProblem). A lead lacking the field fails every
 * filter but `neq` and `not_in`.
 */
const ruleFilter = z.discriminatedUnion(
  'op',
  [
    z.object({ column: filterColumn, op: z.enum(['eq', 'neq', 'gte', 'lte']), value: filterScalar }),
    z.object({
      column: filterColumn,
      op: z.enum(['in', 'not_in']),
      value: z
        .array(z.union([z.string(), z.number()]).transform((v) => String(v).trim()))
        .min(1, 'Au moins une valeur')
        .max(500, '500 valeurs au plus')
        .refine((vs) => vs.every((v) => v.length > 0 && v.length <= 200), 'Valeurs vides ou trop longues'),
    }),
    z.object({
      column: filterColumn,
      op: z.enum(['between', 'age_between']),
      value: z.tuple([filterScalar, filterScalar], { error: 'Intervalle [min, max] attendu' }),
    }),
  ],
  { error: 'Opérateur inconnu (eq, neq, in, not_in, gte, lte, between, age_between)' },
);
export type RuleFilter = z.infer<typeof ruleFilter>;

const ruleFilters = z.array(ruleFilter).max(50, '50 filtres au plus');

const rulePrice = priceCents('Prix du lead').nullable();

const dayFlags = {
  monday: z.boolean().default(false),
  tuesday: z.boolean().default(false),
  wednesday: z.boolean().default(false),
  thursday: z.boolean().default(false),
  friday: z.boolean().default(false),
  saturday: z.boolean().default(false),
  sunday: z.boolean().default(false),
};

/**
 * POST /api/customers/rules (docs/product.md §3 creation payload) → 201 'Règle ajoutée'. Unknown customer or
 * landing → 422 naming the field. Defaults: leads_number 20, hours 00:00–23:59, zip [] (everywhere),
 * days unset, active.
 */
export const ruleCreateRequest = z.object({
  name: z.string().trim().min(1, 'Nom requis').max(200, 'Nom trop long (200 caractères au plus)'),
  customer_id: z.number({ error: 'Client requis' }).int('Client requis').positive('Client requis').max(maxSerialId, 'Client inconnu'),
  landings: ruleLandings,
  zip: z
    .array(zipEntry)
    .max(5000, '5 000 codes au plus')
    .default([])
    .transform((z) => [...new Set(z)]),
  hours: ruleHours.default({ start: '00:00', end: '23:59' }),
  leads_number: leadsNumber.default(20),
  active: z.boolean().default(true),
  ...dayFlags,
  caps: ruleCaps.default({ hour: null, week: null, month: null }),
  /** 1 is served first; open rules of a better priority always win. */
  priority: priority.default(5),
  /** Within a priority the next lead goes to the smallest count_today / weight; null: the daily cap (least filled first). */
  weight: weight.default(null),
  filters: ruleFilters.default([]),
  /** True: a lead it takes goes to it alone; false: shared with other customers' non-exclusive rules, up to the landing's max_buyers. */
  exclusive: z.boolean().default(true),
  /** Price of each lead it sells (cents, HT); null: its customer's default price at the sale. */
  price_cents: rulePrice.default(null),
});
export type RuleCreateRequest = z.input<typeof ruleCreateRequest>;

/** PATCH /api/customers/rules/:id ('Règle modifiée'): edit, pause (`active: false`), resume; only the fields sent change. */
export const ruleUpdateRequest = z.object({
  name: z.string().trim().min(1, 'Nom requis').max(200, 'Nom trop long (200 caractères au plus)').optional(),
  customer_id: z.number().int().positive('Client requis').max(maxSerialId, 'Client inconnu').optional(),
  landings: ruleLandings.optional(),
  zip: z
    .array(zipEntry)
    .max(5000, '5 000 codes au plus')
    .transform((z) => [...new Set(z)])
    .optional(),
  hours: ruleHours.optional(),
  leads_number: leadsNumber.optional(),
  active: z.boolean().optional(),
  monday: z.boolean().optional(),
  tuesday: z.boolean().optional(),
  wednesday: z.boolean().optional(),
  thursday: z.boolean().optional(),
  friday: z.boolean().optional(),
  saturday: z.boolean().optional(),
  sunday: z.boolean().optional(),
  /** Only the windows sent change (`{ caps: { hour: null } }` lifts the hour cap alone). */
  caps: z.object({ hour: windowCap.optional(), week: windowCap.optional(), month: windowCap.optional() }).optional(),
  priority: priority.optional(),
  weight: weight.optional(),
  filters: ruleFilters.optional(),
  exclusive: z.boolean().optional(),
  price_cents: rulePrice.optional(),
});
export type RuleUpdateRequest = z.input<typeof ruleUpdateRequest>;

/**
 * Leads delivered by a rule on the current Paris day, against its cap, and when it is expected to
 * reach it ('HH:mm' Paris, from today's pace and the same weekday's arrivals of the last 4 weeks;
 * null when full already, idle, paused or not expected to fill today: server/services/lives/forecast.ts).
 */
const ruleFill = z.object({ count: z.number(), leads_number: z.number(), expected_full_at: z.string().nullable() });
export type RuleFill = z.infer<typeof ruleFill>;

/**
 * Leads sold by a rule (lead_sales, returned ones included) in the current Paris hour, ISO week
 * and month, for the list's fills; null for a window the rule does not cap (not counted).
 */
const ruleSold = z.object({ hour: z.number().nullable(), week: z.number().nullable(), month: z.number().nullable() });
export type RuleSold = z.infer<typeof ruleSold>;

export const rule = z.object({
  id: z.number(),
  name: z.string(),
  customer_id: z.number(),
  customer_name: z.string(),
  /** False when the customer is paused: the rule delivers nothing though `active` may be true. */
  customer_active: z.boolean(),
  landings: z.array(landingRef),
  zip: z.array(z.string()),
  hours: ruleHours,
  leads_number: z.number(),
  monday: z.boolean(),
  tuesday: z.boolean(),
  wednesday: z.boolean(),
  thursday: z.boolean(),
  friday: z.boolean(),
  saturday: z.boolean(),
  sunday: z.boolean(),
  active: z.boolean(),
  caps: z.object({ hour: z.number().nullable(), week: z.number().nullable(), month: z.number().nullable() }),
  priority: z.number(),
  weight: z.number().nullable(),
  filters: z.array(ruleFilter),
  exclusive: z.boolean(),
  /** Null: the customer's default price. */
  price_cents: z.number().nullable(),
  today: ruleFill,
  sold: ruleSold,
  created_at: z.string(),
});
export type Rule = z.infer<typeof rule>;

/** GET /api/customers/rules?customer_id=N (all customers when absent or 0). */
export const rulesQuery = z.object({ customer_id: queryInt(0, 2_147_483_647, 'Client invalide').default(0) });
export const rulesResponse = z.object({ data: z.array(rule) });

/** POST (201 'Règle ajoutée') and PATCH ('Règle modifiée') /api/customers/rules; a 422 answers `{ status: false, errors }`. */
export const ruleResponse = z.object({ status: z.literal(true), data: rule, message: z.string() });

/** DELETE /api/customers/rules/:id → 'Règle supprimée' (its reports stay). */
export const ruleDeleteResponse = z.object({ data: z.object({ id: z.number() }), message: z.string() });

/**
 * GET /api/customers/rules/today?customer_id=N: today's fill of every rule, for live bars. Cheap
 * (one indexed read); poll it every few seconds. `version` changes whenever any count changes:
 * send it back as `?since=<version>` and an unchanged fill answers 204 with no body.
 */
export const rulesTodayQuery = rulesQuery.extend({ since: z.string().max(100).optional() });
export const rulesTodayResponse = z.object({
  /** The Paris day the counts belong to, YYYY-MM-DD. */
  date: z.string(),
  version: z.string(),
  data: z.array(ruleFill.extend({ id: z.number(), sold: ruleSold })),
});
export type RulesTodayResponse = z.infer<typeof rulesTodayResponse>;

/**
 * Why a rule was passed over for a lead: another `landing`, its `zip` list, the `day`, the
 * `hours` window, a cap reached (`cap` for the day, `cap_hour`, `cap_week`, `cap_month`), a
 * `filter` the lead fails, the rule `paused` or its customer paused (`customer_paused`), its
 * customer bought the same person within its dedupe window (`already_sold_to_customer`), its
 * customer's month of sales would pass its monthly budget with this lead's price (`budget`), or `lost`
 * to a rule served first (better priority, less filled, or a rule that won the race at claim time).
 * A shared lead: `exclusive_elsewhere` (the first open rule was exclusive and took it alone),
 * `max_buyers` (the landing's buyers were reached), `same_customer` (another rule of that customer
 * bought it).
 */
export const passReason = z.enum([
  'landing',
  'zip',
  'day',
  'hours',
  'cap',
  'cap_hour',
  'cap_week',
  'cap_month',
  'filter',
  'paused',
  'customer_paused',
  'already_sold_to_customer',
  'budget',
  'lost',
  'exclusive_elsewhere',
  'max_buyers',
  'same_customer',
]);
export type PassReason = z.infer<typeof passReason>;

/** A window's count when the lead was offered, against the rule's cap for it (null: no cap). */
const windowFill = z.object({ count: z.number(), cap: z.number().nullable() });

const routingCandidate = z.object({
  rule_id: z.number(),
  /** Current name; the rule may have been deleted since (`deleted: true`, name as it was). */
  rule_name: z.string(),
  customer_id: z.number(),
  customer_name: z.string(),
  deleted: z.boolean(),
  /** The rule's day count when the lead was offered. */
  count: z.number(),
  leads_number: z.number(),
  /** null for a rule that bought the lead (several when it was shared). */
  reason: passReason.nullable(),
  /** The rule's priority (1 served first), weight and exclusivity, and its other windows; absent from decisions made before them. */
  priority: z.number().optional(),
  weight: z.number().nullable().optional(),
  exclusive: z.boolean().optional(),
  windows: z.object({ hour: windowFill, week: windowFill, month: windowFill }).optional(),
  /** With reason `filter`: the first filter the lead failed. */
  filter: z.object({ column: z.string(), op: z.string(), value: z.unknown() }).optional(),
});
export type RoutingCandidate = z.infer<typeof routingCandidate>;

/**
 * GET /api/landings/data/:id/routing/:leadId: how the engine routed a lead. `outcome`:
 * `delivered` (to `rule_id`), `unmatched` (no rule took it; it stays new), `expired` (offered on a
 * later Paris day than it became new, e.g. after the server was down: it stays new), `pending`
 * (not offered yet), `not_new` (it left 'new' before the engine offered it). `considered`: the rules of its
 * landing in the order they were tried (best first), then rules of other landings (`landing`).
 */
export const routingResponse = z.object({
  data: z.object({
    lead_id: z.number(),
    landing_id: z.number(),
    outcome: z.enum(['delivered', 'unmatched', 'expired', 'pending', 'not_new']),
    /** When the engine decided, ISO; null while pending. */
    decided_at: z.string().nullable(),
    /** The Paris time the rules were judged at ('YYYY-MM-DD HH:mm', weekday). */
    paris_time: z.string().nullable(),
    /** The latest sale's rule and customer (leads.sold_to). */
    rule_id: z.number().nullable(),
    customer_name: z.string().nullable(),
    /** Every rule that bought the lead, in the order served (several when shared). */
    buyers: z.array(z.object({ rule_id: z.number(), customer_id: z.number(), customer_name: z.string() })),
    considered: z.array(routingCandidate),
  }),
});
export type RoutingResponse = z.infer<typeof routingResponse>;

const ruleId = z.number({ error: 'Règle inconnue' }).int('Règle inconnue').positive('Règle inconnue').max(maxSerialId, 'Règle inconnue');

/** What a simulation tries: a new rule, an edit of a rule (only the fields sent change), or a rule's deletion. */
export type RuleDraft =
  | { kind: 'new'; rule: z.output<typeof ruleCreateRequest> }
  | { kind: 'edit'; id: number; changes: z.output<typeof ruleUpdateRequest> }
  | { kind: 'delete'; id: number };

/** Issues of a nested schema, reported under the draft's own path (`rule.name`, `rule.changes.caps.hour`). */
function draftOf<S extends z.ZodType>(schema: S, value: unknown, ctx: z.RefinementCtx, path: PropertyKey[] = []): z.output<S> | typeof z.NEVER {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: [...path, ...issue.path] });
  return z.NEVER;
}

/**
 * A draft as sent: `{ id, delete: true }`, `{ id, changes }` (the PATCH payload), or else the
 * POST payload of a new rule; each checked by its own contract, its messages naming the field.
 */
const ruleDraft = z
  .looseObject({ id: z.unknown().optional(), changes: z.unknown().optional(), delete: z.unknown().optional() })
  .transform((v, ctx): RuleDraft => {
    if (v.id === undefined) return { kind: 'new', rule: draftOf(ruleCreateRequest, v, ctx) };
    const id = draftOf(ruleId, v.id, ctx, ['id']);
    if (v.delete !== undefined) {
      draftOf(z.literal(true, { error: 'delete doit valoir true' }), v.delete, ctx, ['delete']);
      return { kind: 'delete', id };
    }
    return { kind: 'edit', id, changes: draftOf(ruleUpdateRequest, v.changes ?? {}, ctx, ['changes']) };
  });

/**
 * POST /api/customers/rules/simulate: the last `days` Paris days (today included, up to now)
 * replayed through the live engine's judge with the rules as they are plus the draft; nothing
 * written. Unknown rule → 404; a draft the rule form would refuse → 422 naming the field.
 */
export const ruleSimulateRequest = z.object({
  rule: ruleDraft,
  days: z
    .number({ error: 'Nombre de jours entre 1 et 90' })
    .int('Nombre de jours entre 1 et 90')
    .min(1, 'Nombre de jours entre 1 et 90')
    .max(90, 'Nombre de jours entre 1 et 90')
    .default(30),
});
export type RuleSimulateRequest = z.input<typeof ruleSimulateRequest>;

const namedRef = z.object({ id: z.number(), name: z.string() });

/**
 * The draft against the rules as they are (the baseline), over the leads of its landings: `taken`
 * the leads its rule would buy; per Paris day those and when a cap (the day's, the week's or the
 * month's) or its customer's budget closed it ('HH:mm', null: never); `taken_from` the leads it
 * buys that the baseline sold to another rule (by that rule); the leads no rule buys before and
 * after; what the sales would bring in more (cents, negative: less).
 */
export const ruleSimulateResponse = z.object({
  data: z.object({
    days: z.number(),
    leads_considered: z.number(),
    taken: z.number(),
    by_day: z.array(z.object({ date: z.string(), taken: z.number(), cap_reached_at: z.string().nullable() })),
    taken_from: z.array(z.object({ rule: namedRef, customer: namedRef, leads: z.number() })),
    unsold_before: z.number(),
    unsold_after: z.number(),
    revenue_delta_cents: z.number(),
  }),
});
export type RuleSimulation = z.infer<typeof ruleSimulateResponse>['data'];
