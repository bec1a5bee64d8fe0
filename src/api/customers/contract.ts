import { z } from 'zod';

/** A rule of a customer, by name (the palette jumps customer → rules → reports). */
const customerRuleRef = z.object({ id: z.number(), name: z.string(), active: z.boolean() });

/**
 * A customer (buyer of live leads). `active: false` pauses every rule of the customer.
 * `webhook_url`: when set, each delivered lead is also POSTed there as JSON, signed with
 * `X-Lead-Signature: sha256=<hex HMAC-SHA256 of the body with webhook_secret>`.
 */
export const customer = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  active: z.boolean(),
  webhook_url: z.string().nullable(),
  /** The HMAC key the customer checks signatures with (admins hand it over); null without webhook. */
  webhook_secret: z.string().nullable(),
  /** When its webhook was paused after 10 failed attempts in a row (its deliveries kept until resumed); null: not paused. */
  webhook_paused_at: z.string().nullable(),
  /** Days during which the customer never receives a person (same phone or email) it already bought; 0: no dedupe. */
  dedupe_days: z.number(),
  /** Price of a lead sold by a rule without its own price, or by an export to this customer (cents, HT). */
  default_price_cents: z.number(),
  /** Sales minus credits of a Paris calendar month never pass it (cents); null: no budget. */
  monthly_budget_cents: z.number().nullable(),
  /** Days after a sale during which the customer may return the lead; 0: no returns. */
  return_days: z.number(),
  /** Share of a month's sales the customer may return (percent); null: no limit. */
  max_return_rate: z.number().nullable(),
  /** This Paris month so far: sales minus credits (cents), what its budget is measured against. */
  month_revenue_cents: z.number(),
  rules: z.array(customerRuleRef),
  created_at: z.string(),
});
export type Customer = z.infer<typeof customer>;

/** GET /api/customers, by name. */
export const customersResponse = z.object({ data: z.array(customer) });

const customerName = z.string().trim().min(1, 'Nom requis').max(200, 'Nom trop long (200 caractères au plus)');
const customerEmail = z.string().trim().toLowerCase().email('Adresse email invalide').max(254);
const webhookUrl = z
  .string()
  .trim()
  .max(2000, 'Adresse trop longue')
  .url('Adresse de webhook invalide')
  .refine((u) => /^https?:\/\//i.test(u), 'Le webhook doit être une adresse http ou https');

const dedupeDays = z
  .number({ error: 'Fenêtre de dédoublonnage entre 0 et 365 jours' })
  .int('Fenêtre de dédoublonnage entre 0 et 365 jours')
  .min(0, 'Fenêtre de dédoublonnage entre 0 et 365 jours')
  .max(365, 'Fenêtre de dédoublonnage entre 0 et 365 jours');

/** An amount in cents: a whole number from 0 to `max`, the message naming the field. */
const cents = (field: string, max: number, maxText: string) => {
  const message = `${field} en centimes, nombre entier de 0 à ${maxText}`;
  return z.number({ error: message }).int(message).min(0, message).max(max, message);
};

/** A price in cents (0 to 1 000 000 €), for customers, rules and exports. */
export const priceCents = (field: string) => cents(field, 100_000_000, '100 000 000 (1 000 000 €)');
const budgetCents = cents('Budget mensuel', 100_000_000_000, "100 000 000 000 (1 milliard d'euros)").nullable();
const returnDaysMessage = 'Délai de retour en jours, nombre entier de 0 à 365';
const returnDays = z.number({ error: returnDaysMessage }).int(returnDaysMessage).min(0, returnDaysMessage).max(365, returnDaysMessage);
const returnRateMessage = 'Taux de retour maximal en pourcentage de 0 à 100, deux décimales au plus';
const maxReturnRate = z
  .number({ error: returnRateMessage })
  .min(0, returnRateMessage)
  .max(100, returnRateMessage)
  .refine((v) => Number.isInteger(Math.round(v * 100)) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, returnRateMessage)
  .nullable();

/** POST /api/customers 'Client ajouté'; an email already used → 409. */
export const customerCreateRequest = z.object({
  name: customerName,
  email: customerEmail,
  webhook_url: webhookUrl.nullable().optional(),
  dedupe_days: dedupeDays.default(30),
  default_price_cents: priceCents('Prix par défaut').default(0),
  monthly_budget_cents: budgetCents.default(null),
  return_days: returnDays.default(7),
  max_return_rate: maxReturnRate.default(null),
});
export type CustomerCreateRequest = z.input<typeof customerCreateRequest>;

/**
 * PATCH /api/customers/:id ('Client modifié'): only the fields sent change. `webhook_url: null`
 * removes the webhook; `rotate_webhook_secret: true` issues a new signing key.
 */
export const customerUpdateRequest = z.object({
  name: customerName.optional(),
  email: customerEmail.optional(),
  active: z.boolean().optional(),
  webhook_url: webhookUrl.nullable().optional(),
  rotate_webhook_secret: z.boolean().optional(),
  dedupe_days: dedupeDays.optional(),
  default_price_cents: priceCents('Prix par défaut').optional(),
  monthly_budget_cents: budgetCents.optional(),
  return_days: returnDays.optional(),
  max_return_rate: maxReturnRate.optional(),
});
export type CustomerUpdateRequest = z.input<typeof customerUpdateRequest>;

/** Answer of POST and PATCH /api/customers. */
export const customerResponse = z.object({ data: customer, message: z.string() });

/** A calendar month, YYYY-MM (Paris calendar); the server refuses months to come. */
const statementMonth = z
  .string({ error: 'Mois requis (AAAA-MM)' })
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Mois invalide, attendu AAAA-MM avec un mois de 01 à 12')
  .refine((m) => m >= '2000-01', 'Mois invalide, pas de relevé avant 2000');

/** GET /api/customers/:id/statement?month=YYYY-MM. */
export const statementQuery = z.object({ month: statementMonth });

/**
 * A line of a statement: a Paris day's sales and returns of one rule (null: sold without a rule, an
 * export) and channel. A sale counts on the day it was sold (`leads`, `amount_cents`), a return on
 * the day it was returned (`returned`, `credits_cents`: the price of the sales returned).
 */
const statementLine = z.object({
  date: z.string(),
  rule: z.object({ id: z.number(), name: z.string() }).nullable(),
  channel: z.enum(['live', 'export']),
  leads: z.number(),
  returned: z.number(),
  amount_cents: z.number(),
  credits_cents: z.number(),
});
export type StatementLine = z.infer<typeof statementLine>;

/** A customer's month: lines by date, rule name, channel; `due_cents` = `total_cents` − `credits_cents`. */
export const statement = z.object({
  customer: z.object({ id: z.number(), name: z.string(), email: z.string() }),
  month: z.string(),
  lines: z.array(statementLine),
  total_cents: z.number(),
  credits_cents: z.number(),
  due_cents: z.number(),
});
export type Statement = z.infer<typeof statement>;
export const statementResponse = z.object({ data: statement });

export const statementFormats = ['pdf', 'xlsx', 'csv'] as const;
export type StatementFormat = (typeof statementFormats)[number];

/** GET /api/customers/:id/statement/file?month=YYYY-MM&format=pdf|xlsx|csv: the statement as a document to send. */
export const statementFileQuery = statementQuery.extend({
  format: z.enum(statementFormats, { error: 'Format invalide (pdf, xlsx ou csv)' }),
});
