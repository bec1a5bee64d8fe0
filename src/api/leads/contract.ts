import { z } from 'zod';
import { priceCents } from '../customers/contract';
import { queryInt } from '../ids';
import { columnType, landingIdsParam } from '../landings/contract';

/** Lead statuses as stored; 'duplicate' is the doublons tab, 'converted' the convertis tab. */
export const entryStatus = z.enum(['new', 'extracted', 'archived', 'trashed', 'converted', 'duplicate']);
export type EntryStatus = z.infer<typeof entryStatus>;

/** Statuses a bulk status change may set (extracted comes with an export, converted with a conversion). */
const targetStatus = z.enum(['new', 'archived', 'trashed']);
export type TargetStatus = z.infer<typeof targetStatus>;

/** Statuses leads may be extracted (sold) from; a lead already extracted or converted is never sold again. */
export const extractableStatus = z.enum(['new', 'archived', 'trashed', 'duplicate']);

export const leadSource = z.enum(['taboola', 'facebook', 'google', 'sms', 'email', 'outbrain', 'internal', 'autre']);
export type LeadSource = z.infer<typeof leadSource>;
export const leadSources = leadSource.options;

/**
 * Fixed columns of every lead row, in display order. The per-landing form columns follow them in
 * the same flat row object (a form column never shadows a fixed one).
 */
export const fixedColumns = [
  'id',
  'created_at',
  'updated_at',
  'landing',
  'entry_status',
  'source',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'url_presale',
  'visitor',
  'departement',
  'zone_climatique',
  'sold_to',
  'convert',
  'rapport_id',
] as const;
export type FixedColumn = (typeof fixedColumns)[number];

const id = z.number().int().positive();
const leadId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/**
 * One lead of GET /api/landings/data/:ids: the fixed columns (timestamps as ISO strings,
 * `landing` = landing id, `convert` = id of the copy made by a conversion) plus the
 * per-landing form values under their column keys.
 */
export const leadRow = z
  .object({
    id: z.number(),
    created_at: z.string(),
    updated_at: z.string(),
    landing: z.number(),
    entry_status: entryStatus,
    source: leadSource,
    utm_source: z.string().nullable(),
    utm_medium: z.string().nullable(),
    utm_campaign: z.string().nullable(),
    url_presale: z.string().nullable(),
    visitor: z.string().nullable(),
    departement: z.string(),
    zone_climatique: z.string(),
    sold_to: z.string().nullable(),
    convert: z.number().nullable(),
    rapport_id: z.number().nullable(),
    /** On a duplicate: the lead it repeats (same landing, same phone or email, within 30 days before), if still there. */
    duplicate_of: z.object({ id: z.number(), entry_status: entryStatus }).nullable().optional(),
  })
  .catchall(z.unknown());
export type LeadRow = z.infer<typeof leadRow>;

/** How a column may be filtered in the query string (see leadListSearchParams). */
const filterKind = z.enum(['text', 'values', 'date', 'number']);

/**
 * A visible column of the lead list. `fixed` columns have `label: null` (the client translates
 * `leads.column.<key>`); form columns carry their landing label. `hidden` columns (rapport_id)
 * are kept in the rows but not shown in the cells.
 */
const leadKey = z.object({
  key: z.string(),
  label: z.string().nullable(),
  type: z.union([columnType, z.enum(['datetime', 'status', 'source', 'id'])]),
  fixed: z.boolean(),
  hidden: z.boolean(),
  filter: filterKind,
  options: z.array(z.string()).optional(),
});
export type LeadKey = z.infer<typeof leadKey>;

/** A column named by a filter, a sort or an import mapping. */
const columnName = z.string().max(200);

/**
 * Column filters, shared by the list query string and the "all N matching" bulk actions:
 * - `contains[col]`: case-insensitive "contains", matched literally (%, _, quotes, HTML are plain text);
 * - `values[col]`: exact values (any of them);
 * - `dates[col]`: 'YYYY-MM-DD<>YYYY-MM-DD' (either side may be empty), inclusive, on date and
 *   timestamp columns (created_at, updated_at, form columns of type date).
 * A column that is neither fixed nor a form column of the selected landings → 422 naming it.
 */
export const leadFilters = z.object({
  contains: z.record(columnName, z.string().max(500)).default({}),
  values: z.record(columnName, z.array(z.string().max(500)).max(500)).default({}),
  dates: z.record(columnName, z.string().regex(/^(\d{4}-\d{2}-\d{2})?<>(\d{4}-\d{2}-\d{2})?$/, 'Plage de dates invalide (YYYY-MM-DD<>YYYY-MM-DD)')).default({}),
});
export type LeadFilters = z.input<typeof leadFilters>;

/**
 * GET /api/landings/data/:ids query string. Besides these, filters travel as
 * `filter[col]=text` (contains), `in[col]=a&in[col]=b` (exact values, repeat the key) and
 * `date[col]=2025-01-01<>2025-03-31`; build them with leadListSearchParams().
 * Paging: `_cursor` (keyset, from the previous page's `next_cursor`) or `_offset`. `_ceiling`: only
 * leads up to that id (the `ceiling` of the list's first page), so that leads arriving meanwhile
 * never shift the pages read after it; without it, the newest lead's id now.
 */
export const leadListQuery = z.object({
  _limit: queryInt(0, 500, 'Nombre de résultats entre 0 et 500').default(150),
  entry_status: entryStatus.default('new'),
  _sort: columnName.default('created_at'),
  _order: z.enum(['asc', 'desc']).default('desc'),
  _cursor: z.string().max(4000).optional(),
  _offset: queryInt(0, 10_000_000, 'Décalage entre 0 et 10 000 000').default(0),
  _ceiling: queryInt(0, Number.MAX_SAFE_INTEGER, 'Identifiant de lead invalide').optional(),
});
export type LeadListQuery = z.input<typeof leadListQuery>;

/** Builds the query string of GET /api/landings/data/:ids. */
export function leadListSearchParams(query: LeadListQuery, filters: LeadFilters = {}): URLSearchParams {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  for (const [col, v] of Object.entries(filters.contains ?? {})) if (v !== '') params.append(`filter[${col}]`, v);
  for (const [col, list] of Object.entries(filters.values ?? {})) for (const v of list) params.append(`in[${col}]`, v);
  for (const [col, v] of Object.entries(filters.dates ?? {})) if (v !== '<>') params.append(`date[${col}]`, v);
  return params;
}

export const leadListResponse = z.object({
  data: z.array(leadRow),
  keys: z.array(leadKey),
  /** Previous buyers (distinct sold_to), for the 'Vendu à' select. */
  for_customer: z.array(z.string()),
  /** Previous import sources (utm_medium of imported leads), for the import step 1. */
  import_from: z.array(z.string()),
  /** Number of leads matching status and filters (all pages). */
  total: z.number(),
  /** False when `total` is an estimate (column filters over many leads): GET …/count gives the exact number. */
  total_exact: z.boolean(),
  /** Cursor of the next page, null on the last one. */
  next_cursor: z.string().nullable(),
  /** The highest lead id the list holds (`_ceiling`, or the newest lead's when not given): the next pages' `_ceiling`. */
  ceiling: z.number(),
});
export type LeadListResponse = z.infer<typeof leadListResponse>;

/** GET /api/landings/data/:ids/count (same status and filters as the list): the exact total. */
export const leadCountResponse = z.object({ total: z.number() });
export type LeadCountResponse = z.infer<typeof leadCountResponse>;

/** GET /api/landings/data/:ids/counts: the leads of these landings in each status (the lead view's tabs). */
export const statusCountsResponse = z.object({ data: z.record(entryStatus, z.number()) });
export type StatusCountsResponse = z.infer<typeof statusCountsResponse>;

const badCeiling = 'Identifiant de lead invalide';

/**
 * "All N matching": the selection of the list, resolved on the server. `ceiling`: the list's
 * (its first page's `ceiling`), so that the action covers the leads the user saw and counted, not
 * those that arrived since; without it, every matching lead up to the newest.
 */
export const leadSelection = z.object({
  ids: z.array(id).min(1).max(100),
  entry_status: entryStatus,
  filters: leadFilters.default({ contains: {}, values: {}, dates: {} }),
  ceiling: z.number({ error: badCeiling }).int(badCeiling).min(0, badCeiling).max(Number.MAX_SAFE_INTEGER, badCeiling).optional(),
});
export type LeadSelection = z.input<typeof leadSelection>;

const leadIds = z.array(leadId).min(1, 'Merci de sélectionner des leads').max(100_000);

/**
 * POST /api/landings/data: `leads` (ids) or `filter` (all matching). `from_status` is the status
 * the user saw (the tab); only leads still in it move. Without it, any lead not already in
 * `entry_status` (and not converted) moves. With `filter`, from_status is filter.entry_status.
 */
export const statusChangeRequest = z
  .object({
    entry_status: targetStatus,
    from_status: entryStatus.optional(),
    leads: leadIds.optional(),
    filter: leadSelection.optional(),
  })
  .refine((b) => (b.leads ? !b.filter : !!b.filter), { message: 'Merci de sélectionner des leads', path: ['leads'] });
export type StatusChangeRequest = z.input<typeof statusChangeRequest>;

/** Answer of a status change: how many leads moved, and the action to undo it. */
export const statusChangeResponse = z.object({
  data: z.object({ count: z.number(), action_id: z.number() }),
  message: z.string(),
});

/** POST /api/landings/data/undo/:action_id: restores the previous statuses, once. */
export const undoResponse = z.object({ data: z.object({ count: z.number() }), message: z.string() });

/** DELETE /api/landings/data: definitive deletion of `leads` or of all matching `filter`. */
export const deleteRequest = z
  .object({ leads: leadIds.optional(), filter: leadSelection.optional() })
  .refine((b) => (b.leads ? !b.filter : !!b.filter), { message: 'Merci de sélectionner des leads', path: ['leads'] });
export type DeleteRequest = z.input<typeof deleteRequest>;
export const countResponse = z.object({ data: z.object({ count: z.number() }), message: z.string() });

/**
 * POST /api/landings/convert/leads: copies the leads into `landing` as new leads; the originals
 * become converted and point to their copy. Leads already converted or already in that landing are skipped.
 */
export const convertRequest = z.object({
  landing: id,
  leads: z.array(leadId).min(1, 'Veuillez sélectionner au moins un lead à convertir').max(100_000),
  from_status: entryStatus.optional(),
});
export type ConvertRequest = z.input<typeof convertRequest>;
export const convertResponse = z.object({
  data: z.object({ count: z.number(), ids: z.array(z.number()) }),
  message: z.string(),
});

export const bookType = z.enum(['xlsx', 'csv', 'pdf', 'txt']);
export type BookType = z.infer<typeof bookType>;

/**
 * POST /api/landings/data/:ids/export, with `leads` (ids) or `filter`. Only leads still in
 * `from_status` (default: any extractable status; with `filter`, its tab status) are sold; they become extracted, sold_to = for_customer. `rapport`: id of
 * the report the export belongs to, if any.
 */
export const exportRequest = z
  .object({
    bookType: bookType.default('xlsx'),
    filename: z.string().trim().max(120).optional().nullable(),
    leads: z.array(leadId).max(100_000).optional(),
    /** Instead of `leads`: every lead matching the list filter ("all N matching"). */
    filter: leadSelection.optional(),
    for_customer: z.string().trim().max(200).optional().nullable(),
    rapport: z.union([z.number().int().positive(), z.boolean(), z.null()]).optional(),
    from_status: extractableStatus.optional(),
    /** Price of each lead sold to the customer 'Vendu à' names (cents, HT); absent: that customer's default price. */
    price_cents: priceCents('Prix du lead').nullable().optional(),
  })
  // Either ids or a filter, as for a status change: with both, which leads to sell is ambiguous.
  .refine((b) => !(b.leads && b.filter), { message: 'Merci de sélectionner des leads', path: ['leads'] })
  .transform((b) => ({ ...b, leads: b.leads ?? [] }));
export type ExportRequest = z.input<typeof exportRequest>;

/**
 * The download link: GET {url} = /api/exports/{token}/{filename}, public capability. `count`: the
 * leads sold; `skipped`: the selected leads left unsold because the buyer ('Vendu à' naming a
 * customer) bought the same person within its dedupe window (or earlier in this export).
 */
export const exportLink = z.object({ url: z.string(), token: z.string(), filename: z.string(), count: z.number(), skipped: z.number() });
export type ExportLink = z.infer<typeof exportLink>;
export const exportResponse = z.object({ data: exportLink, message: z.string() });

/** Fields of a lead that an import or an intake may set besides the form columns. */
export const trackingFields = ['source', 'utm_source', 'utm_medium', 'utm_campaign', 'url_presale', 'visitor'] as const;

/** A column header of an imported file (cells are bounded per column by the server's checks). */
const fileHeader = z.string().max(1000);

type FileCell = string | number | boolean | null;
const isCell = (v: unknown) => v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
/** Faulty cells named at most in a refusal of a file's rows. */
const MAX_ROW_ISSUES = 500;
/**
 * The rows of an imported file, each { <file header>: <cell> }, checked where they are: a file
 * holds up to 200,000 rows, and a record schema copied every one of them into a new object
 * (100,000 rows: 170–230 ms and as much garbage again as the parsed body; checked here, 15–55 ms).
 */
const fileRows = z
  .array(z.custom<Record<string, FileCell>>())
  .min(1, 'Le fichier ne contient aucune ligne')
  .max(200_000, 'Le fichier contient plus de 200 000 lignes')
  .check((ctx) => {
    const issue = (message: string, input: unknown, path: (string | number)[]) => ctx.issues.push({ code: 'custom', message, input, path });
    for (const [i, row] of ctx.value.entries()) {
      if (ctx.issues.length >= MAX_ROW_ISSUES) return;
      if (typeof row !== 'object' || row === null || Array.isArray(row)) {
        issue('Ligne illisible (des en-têtes et leurs valeurs sont attendus)', row, [i]);
        continue;
      }
      for (const header of Object.keys(row)) {
        if (header.length > 1000) issue('En-tête trop long (1 000 caractères au plus)', header, [i, header]);
        else if (!isCell(row[header])) issue('Valeur illisible (un texte, un nombre, vrai ou faux, ou rien)', row[header], [i, header]);
      }
    }
  })
  .meta({ items: { type: 'object', propertyNames: { maxLength: 1000 }, additionalProperties: { type: ['string', 'number', 'boolean', 'null'] } } });

/**
 * POST /api/landings/:id/import/excel. `data`: the file's rows, keyed by file header.
 * `columns`: { <landing column key or tracking field>: <file header> }; a key absent from it is
 * read from the header of the same name. `form_import_from` becomes utm_medium.
 */
export const importRequest = z.object({
  data: fileRows,
  columns: z.record(columnName, fileHeader).default({}),
  form_import_from: z.string().trim().min(1, 'Merci de choisir la source').max(100),
});
export type ImportRequest = z.input<typeof importRequest>;

export const importResponse = z.object({
  data: z.object({ inserted: z.number(), duplicates: z.number() }),
  message: z.string(),
});

/** A 422 import answer carries `rows`: each faulty cell (row = 1-based index in `data`). */
export interface ImportRowError {
  row: number;
  column: string;
  message: string;
}

/**
 * GET /api/landings/data/departement/:ids/:category/:start/:end/:zone
 * - production: every lead created in [start, end];
 * - stock: of those, leads still new; convertis: converted; production_extracted: extracted.
 * Grouped by department, or by climate zone when :zone is 1/true.
 */
const statsCategory = z.enum(['production', 'stock', 'convertis', 'production_extracted']);
export type StatsCategory = z.infer<typeof statsCategory>;

/** A day of a statistics range; the years are bounded so that a month or a day later still is one. */
const statsDay = (message: string) => z.iso.date(message).refine((day) => day >= '1900-01-01' && day <= '2999-12-31', message);

export const statsParams = z.object({
  ids: landingIdsParam,
  category: statsCategory,
  start: statsDay('Date de début invalide (YYYY-MM-DD, années 1900 à 2999)'),
  end: statsDay('Date de fin invalide (YYYY-MM-DD, années 1900 à 2999)'),
  zone: z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true'),
});

const departmentStat = z.object({
  departement: z.string(),
  zone_climatique: z.string(),
  /** All leads of the row; then the same count per source. */
  value: z.number(),
  taboola: z.number(),
  facebook: z.number(),
  google: z.number(),
  sms: z.number(),
  email: z.number(),
  outbrain: z.number(),
  internal: z.number(),
  autre: z.number(),
});
export type DepartmentStat = z.infer<typeof departmentStat>;
export const departmentStatsResponse = z.object({ data: z.array(departmentStat) });

/**
 * POST /api/intake/{landing key} (public): the form values under the landing's column keys,
 * plus optional tracking fields. Answer 201.
 */
export const intakeResponse = z.object({ data: z.object({ id: z.number(), entry_status: entryStatus }) });
