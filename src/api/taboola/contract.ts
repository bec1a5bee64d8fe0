import { z } from 'zod';
import { maxSerialId } from '../ids';

/**
 * Every Taboola answer says whether it comes from the built-in sandbox (no TABOOLA_CLIENT_ID /
 * TABOOLA_CLIENT_SECRET configured: accounts, campaigns and targeting kept in the database, demo
 * data) or from Backstage; the screen shows a banner in the sandbox.
 */
const sandbox = z.boolean();

/** An advertiser account: `account_id` is Backstage's textual id, the one the other paths take. */
const taboolaAccount = z.object({ id: z.string(), name: z.string(), account_id: z.string() });
export type TaboolaAccount = z.infer<typeof taboolaAccount>;

/** GET /api/taboola/accounts (admin). */
export const taboolaAccountsResponse = z.object({ data: z.array(taboolaAccount), sandbox });
export type TaboolaAccountsResponse = z.infer<typeof taboolaAccountsResponse>;

const taboolaCampaign = z.object({ id: z.string(), name: z.string(), advertiser_id: z.string() });
export type TaboolaCampaign = z.infer<typeof taboolaCampaign>;

/** GET /api/taboola/campaigns/:accountId (admin); unknown account → 404. */
export const taboolaCampaignsResponse = z.object({ data: z.array(taboolaCampaign), sandbox });
export type TaboolaCampaignsResponse = z.infer<typeof taboolaCampaignsResponse>;

/** What a campaign targets: every postal code (ALL), or only `codes` (INCLUDE) or all but them (EXCLUDE, set elsewhere). */
const targetingType = z.enum(['ALL', 'INCLUDE', 'EXCLUDE']);

export const targeting = z.object({ type: targetingType, codes: z.array(z.string()) });
export type Targeting = z.infer<typeof targeting>;

/** GET /api/taboola/campaigns/:accountId/:campaignId/codes (admin). */
export const targetingResponse = z.object({ data: targeting, sandbox });
export type TargetingResponse = z.infer<typeof targetingResponse>;

/** Types a send may set. */
const sendType = z.enum(['ALL', 'INCLUDE'], { error: 'Erreur' });

/**
 * POST /api/taboola/campaigns/:accountId/:campaignId/codes (admin), multipart/form-data:
 * - `type`: ALL or INCLUDE (anything else → 422 'Erreur');
 * - INCLUDE: `file`, an xlsx (≤ 5 MB; postal codes in the first column of the first sheet, an
 *   optional header row), or instead `codes`, the codes as text separated by commas, spaces or
 *   line breaks (the departments' codes, the map's selection); neither → 422 'Erreur'.
 * Every code is checked against the French postal codes; unknown ones → 422 `validation_failed`
 * listing them in `unknown` (and `rows`: their line in the file), nothing is sent. A POST
 * replaces the whole list; the answer is the targeting read back afterwards, with
 * 'Codes postaux mis à jour'. Backstage failures → 502 `taboola_error` with a French message.
 * A send that widens the campaign (ALL after a list, or a code it does not target today) → 409
 * `conflict` with `widens` (before and after), nothing sent, unless `widen` is `confirmed`.
 */
export const sendTargetingFields = z.object({ type: sendType, codes: z.string().max(2_000_000).optional(), widen: z.literal('confirmed').optional() });
export const sendTargetingResponse = z.object({ data: targeting, sandbox, message: z.string() });

/** A targeting as the widening's confirmation names it: its type and how many codes. */
const targetingSummary = z.object({ type: targetingType, count: z.number() });
export type TargetingSummary = z.infer<typeof targetingSummary>;

/**
 * What a send changes in a campaign's targeting: the targeting before and after, the codes of the
 * list added and removed (INCLUDE to INCLUDE; 0 when ALL or EXCLUDE is on either side), and the
 * departments those codes are in.
 */
const targetingChange = z.object({
  before: targetingSummary,
  after: targetingSummary,
  added: z.number(),
  removed: z.number(),
  departements: z.object({ added: z.array(z.string()), removed: z.array(z.string()) }),
});
export type TargetingChange = z.infer<typeof targetingChange>;

/** The 409 of a send that widens the campaign without `widen=confirmed`. */
export const widensError = z.object({
  error: z.literal('conflict'),
  message: z.string(),
  widens: targetingChange,
});
export type WidensError = z.infer<typeof widensError>;

/**
 * GET /api/taboola/departements/codes?departements=30,34,2A (admin, 'Cibler des départements'):
 * every postal code of these departments, sorted and without duplicates, and how many each gave.
 * Unknown department → 422.
 */
export const departementCodesQuery = z.object({
  departements: z
    .string({ error: 'Choisissez au moins un département' })
    .regex(/^(\d{2,3}|2[AB])(,(\d{2,3}|2[AB]))*$/i, 'Départements invalides (ex. 30,34,2A)')
    .transform((s) => [...new Set(s.toUpperCase().split(','))])
    .pipe(z.array(z.string()).max(110, 'Départements invalides (ex. 30,34,2A)')),
});
export const departementCodesResponse = z.object({
  data: z.object({ codes: z.array(z.string()), by_departement: z.record(z.string(), z.number()) }),
});
export type DepartementCodesResponse = z.infer<typeof departementCodesResponse>;

/** GET and PUT /api/taboola/campaigns/:accountId/:campaignId/landings (admin): the landings the campaign feeds (issue 27). */
export const campaignLandingsRequest = z.object({
  landings: z
    .array(z.number({ error: 'Landing inconnue' }).int('Landing inconnue').positive('Landing inconnue').max(maxSerialId, 'Landing inconnue'), {
      error: 'Liste de landings attendue',
    })
    .max(100, 'Au plus 100 landings')
    .transform((ids) => [...new Set(ids)].sort((a, b) => a - b)),
});
export const campaignLandingsResponse = z.object({ data: z.object({ landings: z.array(z.number()) }) });
export type CampaignLandings = z.infer<typeof campaignLandingsResponse>['data'];

/**
 * GET /api/taboola/campaigns/:accountId/:campaignId/covered[?at=ISO] (admin, 'Cibler les zones
 * couvertes'): the INCLUDE list of every postal code of the departments `open` for the campaign's
 * landings (GET /api/productions/:category/coverage) and its change against the campaign's
 * targeting. A read: nothing is sent. No landing linked → 422.
 */
export const coveredQuery = z.object({
  at: z.iso
    .datetime({ offset: true, error: 'Instant invalide (ISO 8601, ex. 2026-03-02T09:30:00Z)' })
    .transform((s) => new Date(s))
    .optional(),
});
export const coveredResponse = z.object({
  data: z.object({ landings: z.array(z.number()), departements: z.array(z.string()), codes: z.array(z.string()), change: targetingChange }),
  sandbox,
});
export type Covered = z.infer<typeof coveredResponse>['data'];
