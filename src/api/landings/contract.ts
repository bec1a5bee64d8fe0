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

/** PATCH /api/landings/:id (admin): an http(s) URL, or null to answer form posts with JSON. */
export const landingUpdateRequest = z.object({
  thank_you_url: z.string().trim().max(2000, 'Adresse trop longue (2 000 caractères au plus)').refine(isHttpUrl, 'Adresse http(s) invalide').nullable(),
});

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
