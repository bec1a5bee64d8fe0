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

/** POST /api/customers 'Client ajouté'; an email already used → 409. */
export const customerCreateRequest = z.object({
  name: customerName,
  email: customerEmail,
  webhook_url: webhookUrl.nullable().optional(),
  dedupe_days: dedupeDays.default(30),
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
});
export type CustomerUpdateRequest = z.input<typeof customerUpdateRequest>;

/** Answer of POST and PATCH /api/customers. */
export const customerResponse = z.object({ data: customer, message: z.string() });
