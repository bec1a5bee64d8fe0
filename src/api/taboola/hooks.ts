import { useSignedInQuery } from '../signedIn';
import { campaignLandingsQuery, taboolaAccountsQuery, taboolaCampaignsQuery, targetingQuery } from './queries';

export const useTaboolaAccounts = () => useSignedInQuery(taboolaAccountsQuery);

export const useTaboolaCampaigns = (accountId: string | null) => useSignedInQuery({ ...taboolaCampaignsQuery(accountId ?? ''), enabled: accountId !== null });

export const useTargeting = (accountId: string | null, campaignId: string | null) =>
  useSignedInQuery({ ...targetingQuery(accountId ?? '', campaignId ?? ''), enabled: accountId !== null && campaignId !== null });

export const useCampaignLandings = (accountId: string | null, campaignId: string | null) =>
  useSignedInQuery({ ...campaignLandingsQuery(accountId ?? '', campaignId ?? ''), enabled: accountId !== null && campaignId !== null });
