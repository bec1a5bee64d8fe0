import { defineEndpoint } from '../endpoint';
import {
  campaignLandingsRequest,
  campaignLandingsResponse,
  coveredQuery,
  coveredResponse,
  departementCodesQuery,
  departementCodesResponse,
  sendTargetingResponse,
  taboolaAccountsResponse,
  taboolaCampaignsResponse,
  targetingResponse,
} from './contract';

/** Postal-code targeting of Taboola campaigns. */
export const taboolaApi = {
  accounts: defineEndpoint({
    method: 'GET',
    path: '/api/taboola/accounts',
    auth: 'admin',
    response: taboolaAccountsResponse,
    summary: 'The advertiser accounts',
  }),
  campaigns: defineEndpoint({
    method: 'GET',
    path: '/api/taboola/campaigns/:accountId',
    auth: 'admin',
    response: taboolaCampaignsResponse,
    summary: "An account's campaigns",
  }),
  targeting: defineEndpoint({
    method: 'GET',
    path: '/api/taboola/campaigns/:accountId/:campaignId/codes',
    auth: 'admin',
    response: targetingResponse,
    summary: "A campaign's postal-code targeting",
  }),
  send: defineEndpoint({
    method: 'POST',
    path: '/api/taboola/campaigns/:accountId/:campaignId/codes',
    auth: 'admin',
    body: 'multipart',
    response: sendTargetingResponse,
    summary: 'Replaces the targeting: type ALL, or INCLUDE with a file (xlsx) or typed codes',
  }),
  landings: defineEndpoint({
    method: 'GET',
    path: '/api/taboola/campaigns/:accountId/:campaignId/landings',
    auth: 'admin',
    response: campaignLandingsResponse,
    summary: 'The landings a campaign feeds',
  }),
  setLandings: defineEndpoint({
    method: 'PUT',
    path: '/api/taboola/campaigns/:accountId/:campaignId/landings',
    auth: 'admin',
    body: campaignLandingsRequest,
    response: campaignLandingsResponse,
    summary: 'Links a campaign to landings',
  }),
  covered: defineEndpoint({
    method: 'GET',
    path: '/api/taboola/campaigns/:accountId/:campaignId/covered',
    auth: 'admin',
    query: coveredQuery,
    response: coveredResponse,
    summary: "The postal codes of the departments open for a campaign's landings, and the change they make (a read)",
  }),
  departementCodes: defineEndpoint({
    method: 'GET',
    path: '/api/taboola/departements/codes',
    auth: 'admin',
    query: departementCodesQuery,
    response: departementCodesResponse,
    summary: 'Every postal code of these departments',
  }),
};
