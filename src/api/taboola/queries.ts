import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { taboolaApi } from './endpoints';

/** Every Taboola query starts with this key: a send refreshes the targeting read back. */
export const taboolaKey = ['taboola'] as const;

/** GET /api/taboola/accounts: the advertiser accounts (and whether the sandbox answers). */
export const taboolaAccountsQuery = queryOptions({
  queryKey: [...taboolaKey, 'accounts'],
  queryFn: () => call(taboolaApi.accounts),
  staleTime: 60_000,
});

/** GET /api/taboola/campaigns/:accountId */
export const taboolaCampaignsQuery = (accountId: string) =>
  queryOptions({
    queryKey: [...taboolaKey, 'campaigns', accountId],
    queryFn: () => call(taboolaApi.campaigns, { params: { accountId } }),
    staleTime: 60_000,
  });

/** GET /api/taboola/campaigns/:accountId/:campaignId/codes: the campaign's targeting as Taboola holds it. */
export const targetingQuery = (accountId: string, campaignId: string) =>
  queryOptions({
    queryKey: [...taboolaKey, 'codes', accountId, campaignId],
    queryFn: () => call(taboolaApi.targeting, { params: { accountId, campaignId } }),
  });

/** GET /api/taboola/campaigns/:accountId/:campaignId/landings: the landings the campaign feeds. */
export const campaignLandingsQuery = (accountId: string, campaignId: string) =>
  queryOptions({
    queryKey: [...taboolaKey, 'landings', accountId, campaignId],
    queryFn: () => call(taboolaApi.landings, { params: { accountId, campaignId } }).then((r) => r.data),
  });
