import type { TaboolaAccount, TaboolaCampaign, Targeting } from '../../../src/api/taboola/contract';

/**
 * What the Taboola screen needs from a provider: Backstage itself (backstage.ts) or, without
 * credentials, the sandbox kept in the database (sandbox.ts). Account ids are Backstage's textual
 * `account_id`; postal codes are five-digit strings.
 */
export interface TaboolaProvider {
  readonly sandbox: boolean;
  accounts(): Promise<TaboolaAccount[]>;
  campaigns(accountId: string): Promise<TaboolaCampaign[]>;
  targeting(accountId: string, campaignId: string): Promise<Targeting>;
  /** Replaces the whole list (Backstage's POST does), then answers the targeting read back. */
  setTargeting(accountId: string, campaignId: string, targeting: { type: 'ALL' | 'INCLUDE'; codes: string[] }): Promise<Targeting>;
}
