// Calls of the Taboola screen that change or compute something: the targeting's send and the departments' codes.
import { call } from '../client';
import { taboolaApi } from './endpoints';

export type TargetingSend = { type: 'ALL' } | { type: 'INCLUDE'; file: File } | { type: 'INCLUDE'; codes: readonly string[] };

/**
 * POST /api/taboola/campaigns/:accountId/:campaignId/codes (multipart): replaces the whole list
 * and answers the targeting read back; codes that are no French postal code → 422 `unknown`; a
 * send that widens the campaign → 409 `widens` unless `widen` says the user confirmed it.
 */
export function sendTargeting(accountId: string, campaignId: string, send: TargetingSend, opts: { widen: boolean }) {
  const body = new FormData();
  body.set('type', send.type);
  if (opts.widen) body.set('widen', 'confirmed');
  if ('file' in send) body.set('file', send.file);
  if ('codes' in send) body.set('codes', send.codes.join(','));
  return call(taboolaApi.send, { params: { accountId, campaignId }, body });
}

/** GET /api/taboola/departements/codes: every postal code of these departments ('Cibler des départements'). */
export const departementCodes = (departements: readonly string[]) =>
  call(taboolaApi.departementCodes, { query: { departements: departements.join(',') } }).then((r) => r.data);

/** PUT /api/taboola/campaigns/:accountId/:campaignId/landings: links the campaign to these landings. */
export const setCampaignLandings = (accountId: string, campaignId: string, landings: readonly number[]) =>
  call(taboolaApi.setLandings, { params: { accountId, campaignId }, body: { landings: [...landings] } }).then((r) => r.data);

/** GET /api/taboola/campaigns/:accountId/:campaignId/covered: the INCLUDE list of the departments open now, and its change (nothing sent). */
export const coveredTargeting = (accountId: string, campaignId: string) => call(taboolaApi.covered, { params: { accountId, campaignId } }).then((r) => r.data);
