import { z } from 'zod';
import { landingCategory } from '../landings/contract';
import { leadSource } from '../leads/contract';

/** The categories of /production/:category and /api/productions/:category. */
export const productionCategory = landingCategory;
export type ProductionCategory = z.infer<typeof productionCategory>;

/**
 * A department as the map names it: 'FR-' and the INSEE code ('FR-01' … 'FR-2A', 'FR-2B' …
 * 'FR-976'); the leads store the bare code ('30', '2A'). Whether the code exists is the server's
 * check (404), the shape is the contract's.
 */
export const departmentCode = z.string().regex(/^FR-(\d{2}|2[AB]|97\d)$/, 'Département inconnu');
export type DepartmentCode = z.infer<typeof departmentCode>;
export const toRegion = (departement: string): DepartmentCode => `FR-${departement}`;
export const toDepartement = (region: DepartmentCode) => region.slice(3);

/** Gard and Hérault: the selection before anybody saved one (docs/product.md §2). */
export const defaultSelection: DepartmentCode[] = ['FR-30', 'FR-34'];

/** Longest note (characters): beyond, 422. */
export const maxNoteLength = 10_000;

/**
 * What a saved selection does to its departments' colours: '#rrggbb' (lower case once parsed)
 * gives that colour, 'none' (null) takes it off, 'keep' (undefined) leaves the colours as they
 * are: the user chose no colour, and only looked at other departments.
 */
const regionColor = z
  .string()
  .regex(/^(#[0-9a-fA-F]{6}|none|keep)$/, 'Couleur invalide (#rrggbb, none ou keep)')
  .transform((c) => (c === 'keep' ? undefined : c === 'none' ? null : c.toLowerCase()));

/** The colour a selection takes when the request names none. */
export const defaultSelectionColor = '#d97706';

/** A department's note and colour for one category (shared by all users). */
const productionRegion = z.object({ region: departmentCode, text: z.string(), color: z.string().nullable() });
export type ProductionRegion = z.infer<typeof productionRegion>;

/** GET /api/productions/:category */
export const productionResponse = z.object({
  data: z.object({ regions: z.array(productionRegion), selected: z.array(departmentCode) }),
});
export type Production = z.infer<typeof productionResponse>['data'];

const day = z.iso.date('Date invalide (YYYY-MM-DD)').refine((d) => d >= '1900-01-01' && d <= '2999-12-31', 'Date invalide (années 1900 à 2999)');

/** A comma-separated list of the query string ('FR-30,FR-34'), empty items dropped. */
const commaList = <T extends z.ZodType<string, string>>(item: T, max: number, message: string) =>
  z
    .string()
    .max(10_000, message)
    .transform((s) => [
      ...new Set(
        s
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(item).max(max, message));

export const departmentList = commaList(departmentCode, 200, 'Liste de départements invalide');

/** The landings of a production read: at least one, at most 100 ('1,2'). */
const landingIds = z
  .string({ error: 'Choisissez au moins une landing' })
  .regex(/^\d{1,10}(,\d{1,10})*$/, 'Choisissez au moins une landing')
  .transform((s) => [...new Set(s.split(',').map(Number))])
  .refine((ids) => ids.length <= 100, 'Au plus 100 landings');

/**
 * POST /api/productions/:category/regions/data query string. `departement` absent: every
 * department of the category's leads; present (even empty): only those.
 */
export const regionsDataQuery = z
  .object({
    date_range: z
      .string({ error: 'Période requise (YYYY-MM-DD<>YYYY-MM-DD)' })
      .regex(/^\d{4}-\d{2}-\d{2}<>\d{4}-\d{2}-\d{2}$/, 'Période invalide (YYYY-MM-DD<>YYYY-MM-DD)')
      .transform((s) => s.split('<>') as [string, string])
      .pipe(z.tuple([day, day]))
      .refine(([start, end]) => start <= end, 'La date de fin précède la date de début'),
    landings: landingIds,
    departement: departmentList.optional(),
  })
  .strip();

const keyValue = z.object({ key: z.string(), value: z.number() });

/** Keys of `stats`: the total, each status, and the average per day of the period. */
export const productionStatKeys = ['total', 'new', 'extracted', 'archived', 'trashed', 'converted', 'duplicate', 'per_day'] as const;

/**
 * POST /api/productions/:category/regions/data: `sources` (one row per lead source, in the
 * order of leadSource) and `stats` (productionStatKeys) over the chosen departments; the count of
 * every department of the map that has leads in the period, for the choropleth.
 */
export const regionsDataResponse = z.object({
  data: z.object({
    sources: z.array(keyValue.extend({ key: leadSource })),
    stats: z.array(keyValue.extend({ key: z.enum(productionStatKeys) })),
    departments: z.array(z.object({ region: departmentCode, value: z.number() })),
  }),
});
export type RegionsData = z.infer<typeof regionsDataResponse>['data'];

/** GET /api/productions/:category/coverage?landings=1,2&at=<ISO instant, now when absent> */
export const coverageQuery = z
  .object({
    landings: landingIds,
    at: z.iso
      .datetime({ offset: true, error: 'Instant invalide (ISO 8601, ex. 2026-03-02T09:30:00Z)' })
      .transform((s) => new Date(s))
      .refine((d) => d.getUTCFullYear() >= 1900 && d.getUTCFullYear() <= 2999, 'Instant invalide (années 1900 à 2999)')
      .optional(),
  })
  .strip();

/**
 * Whether a lead of the landings arriving at the instant in a department would be taken: by a
 * rule now (`open`), by one but for its caps or its customer's budget (`full`), only at other
 * hours or days (`closed`), or by none (`none`: no rule there, or only paused ones).
 */
export const coverageStates = ['open', 'full', 'closed', 'none'] as const;
const coverageState = z.enum(coverageStates);
export type CoverageState = z.infer<typeof coverageState>;

const departmentCoverage = z.object({
  departement: departmentCode,
  state: coverageState,
  /** Rules that would take the lead at the instant. */
  open_rules: z.number(),
  /** Leads those rules may still take today (their smallest remaining cap or budget, summed). */
  remaining_today: z.number(),
  /** Leads of the landings arrived in the department that Paris day, until the instant, still new. */
  unsold_today: z.number(),
});
export type DepartmentCoverage = z.infer<typeof departmentCoverage>;

/** Every department of the map, in INSEE order. */
export const coverageResponse = z.object({ data: z.array(departmentCoverage) });

/** POST /api/productions/:category/change_color?departement=FR-30,FR-34[&color=#rrggbb|none|keep]; 'none' takes the colour off, 'keep' leaves it. */
export const changeColorQuery = z
  .object({ departement: departmentList.default([]), color: z.string().default(defaultSelectionColor).pipe(regionColor) })
  .strip();
export const changeColorResponse = z.object({
  data: z.object({ selected: z.array(departmentCode), color: z.string().nullable().optional() }),
  message: z.string(),
});

/** POST /api/productions/:category/:departement/change_text: `text` in the query (the original's form) or the body. */
const noteText = z.string({ error: 'Texte de la note requis' }).max(maxNoteLength, 'La note dépasse 10 000 caractères');
export const changeTextRequest = z.object({ text: noteText.optional() });
export const changeTextResponse = z.object({ data: productionRegion, message: z.string() });
