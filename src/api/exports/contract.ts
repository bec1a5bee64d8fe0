import { z } from 'zod';
import { queryInt } from '../ids';
import { landingIdsParam } from '../landings/contract';
import { bookType, entryStatus } from '../leads/contract';

const day = (message: string) => z.iso.date(message).refine((d) => d >= '1900-01-01' && d <= '2999-12-31', message);
const dayRange = z
  .string()
  .regex(/^(\d{4}-\d{2}-\d{2})?<>(\d{4}-\d{2}-\d{2})?$/, 'Plage de dates invalide (YYYY-MM-DD<>YYYY-MM-DD)')
  .refine((r) => r.split('<>').every((d) => d === '' || day('').safeParse(d).success), 'Plage de dates invalide (YYYY-MM-DD<>YYYY-MM-DD)')
  .refine((r) => {
    const [start, end] = r.split('<>');
    return !start || !end || start <= end;
  }, 'La date de fin précède la date de début');

/**
 * GET /api/exports query (admin). Every filter is optional; an empty value means "any".
 * - `landing_id`: '1,2' — exports that include one of these landings;
 * - `user_id`: the author (0 or empty: everybody's, the /exports/0 screen);
 * - `created_at`: 'YYYY-MM-DD<>YYYY-MM-DD', either side may be empty, inclusive, Paris days;
 * - `for_customer`: the buyer ('Vendu à'), exact;
 * - paging: `_limit` (1–500, default 50) and `_offset`; newest first.
 */
export const exportsQuery = z.object({
  landing_id: z.union([z.literal('').transform(() => undefined), landingIdsParam]).optional(),
  user_id: z.union([z.literal('').transform(() => undefined), queryInt(0, 2_147_483_647, 'Utilisateur invalide')]).optional(),
  created_at: z.union([z.literal('').transform(() => undefined), dayRange]).optional(),
  for_customer: z.string().trim().max(200).optional(),
  _limit: queryInt(1, 500, 'Nombre de résultats entre 1 et 500').default(50),
  _offset: queryInt(0, 10_000_000, 'Décalage entre 0 et 10 000 000').default(0),
});
type ExportsQuery = z.input<typeof exportsQuery>;

/** Builds the query string of GET /api/exports (empty filters left out). */
export function exportsSearchParams(query: ExportsQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '' && v !== '<>') params.set(k, String(v));
  return params;
}

/**
 * One export of the history. `landing`: its landing ids (names in the answer's `landings` map);
 * `user`: its author's id (name in `users`; null once the account is deleted); `created`: ISO
 * timestamp; `url`: the download link /api/exports/{token}/{filename} (absolute when PUBLIC_URL
 * is set); `big_export`: a custom export ('Générer un export personnalisé'), which changed no
 * lead's status and so has nothing to re-inject; `reinjectable`: some leads of this export are
 * still extracted under it (a re-injection would move them).
 */
const exportItem = z.object({
  id: z.number(),
  landing: z.array(z.number()),
  user: z.number().nullable(),
  filename: z.string(),
  book_type: bookType,
  count: z.number(),
  created: z.string(),
  for_customer: z.string().nullable(),
  token: z.string(),
  big_export: z.boolean(),
  url: z.string(),
  reinjectable: z.boolean(),
});
export type ExportItem = z.infer<typeof exportItem>;

/**
 * GET /api/exports answer. `landings` and `users`: id → name of every landing and account (for
 * the filters and the table); `total_leads`: leads of all the exports matching the filters
 * ('Total lead sélection', every page); `total`: how many exports match; `for_customer`: every
 * buyer named in an export, for the 'Vendu à' filter.
 */
export const exportsResponse = z.object({
  data: z.array(exportItem),
  landings: z.record(z.string(), z.string()),
  users: z.record(z.string(), z.string()),
  total_leads: z.number(),
  total: z.number(),
  for_customer: z.array(z.object({ for_customer: z.string() })),
});
export type ExportsResponse = z.infer<typeof exportsResponse>;

/**
 * POST /api/exports/insert/:id (admin, after 'Souhaitez-vous vraiment réinjecter les leads ?'):
 * in one transaction, the export's leads still extracted under it go back to `new` ('Leads
 * insérés', `count` of them); then the delivery engine offers them to the rules again, in the
 * background within seconds (as every new lead), never to the export's buyer. Nothing left to
 * re-inject (all moved since, or a custom export) → 409.
 */
export const reinjectResponse = z.object({
  data: z.object({ count: z.number() }),
  message: z.string(),
});
export type ReinjectResponse = z.infer<typeof reinjectResponse>;

/** Formats a custom export is written in (a pdf of a year of leads helps nobody). */
export const bigExportFormat = bookType.extract(['csv', 'xlsx', 'txt']);

/** A comma-separated list of `item`s in the query string ('new,extracted'); any bad one fails the whole field with `message`. */
const listOf = <T extends z.ZodType<unknown, string>>(item: T, message: string) =>
  z.string({ error: message }).transform((s, ctx): z.output<T>[] => {
    const parts = [...new Set(s.split(','))].map((p) => item.safeParse(p));
    if (parts.length > 100 || parts.some((p) => !p.success)) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return parts.map((p) => p.data as z.output<T>);
  });

/**
 * POST /api/generate_big_export?landings=1,2&status=new,extracted&start=YYYY-MM-DD&end=YYYY-MM-DD
 * (admin; `format` csv by default, or xlsx, txt). Answers 202 at once with the job; the file is
 * written by a background job without changing any lead's status, then appears in the exports
 * with `big_export: true`. A job of the same user still running → 409 `conflict` with its `job`.
 */
export const bigExportQuery = z
  .object({
    landings: landingIdsParam,
    status: listOf(entryStatus, 'Statuts invalides (new, extracted, archived, trashed, converted, duplicate)'),
    start: day('Date de début invalide (YYYY-MM-DD)'),
    end: day('Date de fin invalide (YYYY-MM-DD)'),
    format: bigExportFormat.default('csv'),
  })
  .refine((q) => q.start <= q.end, { message: 'La date de début doit précéder la date de fin', path: ['end'] });
export type BigExportQuery = z.input<typeof bigExportQuery>;

const bigExportState = z.enum(['queued', 'running', 'done', 'failed']);

/**
 * A custom export job. `total`: leads that match (known once it runs), `written`: written so far
 * (the progress bar is written / total); when `done`, `export` is the row of the history (with
 * its `url`), or null when no lead matched (`total` 0, no file); when `failed`, `error` says why
 * in French.
 */
export const bigExportJob = z.object({
  id: z.number(),
  state: bigExportState,
  landings: z.array(z.number()),
  status: z.array(entryStatus),
  start: z.string(),
  end: z.string(),
  format: bigExportFormat,
  total: z.number().nullable(),
  written: z.number(),
  created: z.string(),
  finished: z.string().nullable(),
  error: z.string().nullable(),
  export: exportItem.nullable(),
});
export type BigExportJob = z.infer<typeof bigExportJob>;

/** 202 answer of POST /api/generate_big_export. */
export const bigExportAccepted = z.object({ data: bigExportJob, message: z.string() });
export type BigExportAccepted = z.infer<typeof bigExportAccepted>;

/**
 * GET /api/big_exports/:id (admin): one job, for the progress bar (poll every ~500 ms while
 * queued or running). GET /api/big_exports: the signed-in user's jobs of the last 24 hours,
 * newest first, so the screen finds a job still running after a reload.
 */
export const bigExportJobResponse = z.object({ data: bigExportJob });
export const bigExportJobsResponse = z.object({ data: z.array(bigExportJob) });
