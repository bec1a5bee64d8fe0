import { z } from 'zod';
import { maxSerialId } from '../ids';

/** Types of per-landing form columns; they drive validation at intake/import and the grid filters. */
export const columnType = z.enum(['text', 'phone', 'email', 'postal_code', 'number', 'date', 'select']);
export type ColumnType = z.infer<typeof columnType>;

/** One per-landing form column, as stored in `landings.columns`. */
const landingColumn = z.object({
  key: z.string(),
  label: z.string(),
  type: columnType,
  required: z.boolean(),
  options: z.array(z.string()).optional(),
});
export type LandingColumn = z.infer<typeof landingColumn>;

export const landingCategory = z.enum(['pac', 'pv', 'other']);
export type LandingCategory = z.infer<typeof landingCategory>;

/** GET /api/landings, /api/landings_facebook (lists) and GET /api/landings/:id (one). */
export const landing = z.object({
  id: z.number(),
  /** Public intake key: POST /api/intake/{key}. */
  key: z.string(),
  name: z.string(),
  kind: z.enum(['standard', 'facebook']),
  category: landingCategory,
  zone_climatique: z.boolean(),
  columns: z.array(landingColumn),
  /** Where a plain HTML form posting to the intake is sent (303) after its post; null: JSON answers only. */
  thank_you_url: z.string().nullable(),
  /** How many customers may buy one lead through non-exclusive rules (1–5; 1: never shared). */
  max_buyers: z.number(),
});
export type Landing = z.infer<typeof landing>;

export const landingsResponse = z.object({ data: z.array(landing) });

export const landingResponse = z.object({ data: landing });

const isHttpUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/**
 * PATCH /api/landings/:id (admin), only the fields sent change: `thank_you_url` an http(s) URL, or
 * null to answer form posts with JSON; `max_buyers` 1–5.
 */
export const landingUpdateRequest = z
  .object({
    thank_you_url: z
      .string()
      .trim()
      .max(2000, 'Adresse trop longue (2 000 caractères au plus)')
      .refine(isHttpUrl, 'Adresse http(s) invalide')
      .nullable()
      .optional(),
    max_buyers: z
      .number({ error: "Nombre d'acheteurs entre 1 et 5" })
      .int("Nombre d'acheteurs entre 1 et 5")
      .min(1, "Nombre d'acheteurs entre 1 et 5")
      .max(5, "Nombre d'acheteurs entre 1 et 5")
      .optional(),
  })
  .refine((u) => u.thank_you_url !== undefined || u.max_buyers !== undefined, { message: 'Rien à modifier (thank_you_url, max_buyers)', path: ['_'] });
export type LandingUpdateRequest = z.input<typeof landingUpdateRequest>;

/** GET /api/all/landings: every landing (standard and facebook), id and name only. */
export const landingRef = z.object({ id: z.number(), name: z.string() });
export type LandingRef = z.infer<typeof landingRef>;
export const allLandingsResponse = z.object({ data: z.array(landingRef) });

/** Path parameter of the lead routes: one landing id, or several joined by commas ("3,5"). */
export const landingIdsParam = z
  .string()
  .regex(/^\d{1,10}(,\d{1,10})*$/, 'Liste de landings invalide')
  .transform((s) => [...new Set(s.split(',').map(Number))])
  .refine((ids) => ids.length <= 100 && ids.every((id) => id > 0 && id <= maxSerialId), 'Liste de landings invalide');
