import { z } from 'zod';
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
});
export type RuleUpdateRequest = z.input<typeof ruleUpdateRequest>;

/** Leads delivered by a rule on the current Paris day, against its cap. */
const ruleFill = z.object({ count: z.number(), leads_number: z.number() });
export type RuleFill = z.infer<typeof ruleFill>;

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
  today: ruleFill,
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
  data: z.array(ruleFill.extend({ id: z.number() })),
});
export type RulesTodayResponse = z.infer<typeof rulesTodayResponse>;

/**
 * Why a rule was passed over for a lead: another `landing`, its `zip` list, the `day`, the
 * `hours` window, its cap reached (`cap`), the rule `paused` or its customer paused
 * (`customer_paused`), or `lost` to a less filled rule (or another rule won the race at claim time).
 */
export const passReason = z.enum(['landing', 'zip', 'day', 'hours', 'cap', 'paused', 'customer_paused', 'lost']);
export type PassReason = z.infer<typeof passReason>;

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
  /** null for the winner. */
  reason: passReason.nullable(),
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
    rule_id: z.number().nullable(),
    customer_name: z.string().nullable(),
    considered: z.array(routingCandidate),
  }),
});
export type RoutingResponse = z.infer<typeof routingResponse>;
