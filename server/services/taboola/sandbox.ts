import type { TaboolaAccount, TaboolaCampaign, Targeting } from '../../../src/api/taboola/contract';
import type { Db } from '../../db/connection';
import { notFound } from '../../errors';
import type { TaboolaProvider } from './provider';

export const accountNotFound = () => notFound('Compte Taboola introuvable');
export const campaignNotFound = () => notFound('Campagne Taboola introuvable');

/** In French alphabetical order ('ÉcoHabitat' beside 'Eco…'), whatever the database's collation. */
const byName = <T extends { name: string }>(rows: T[]) => rows.sort((a, b) => a.name.localeCompare(b.name, 'fr'));

/** The provider without Backstage credentials: accounts, campaigns and targeting in the database (demo data). */
export function sandboxProvider(db: Db): TaboolaProvider {
  const account = async (accountId: string) => {
    if (!(await db.query('SELECT 1 FROM taboola_accounts WHERE account_id = $1', [accountId])).rows[0]) throw accountNotFound();
  };
  const campaignId = (raw: string) => {
    if (!/^\d{1,9}$/.test(raw)) throw campaignNotFound();
    return Number(raw);
  };
  return {
    sandbox: true,
    async accounts() {
      const { rows } = await db.query<TaboolaAccount>('SELECT id::text AS id, name, account_id FROM taboola_accounts ORDER BY id');
      return byName(rows);
    },
    async campaigns(accountId) {
      await account(accountId);
      const { rows } = await db.query<TaboolaCampaign>(
        'SELECT id::text AS id, name, account_id AS advertiser_id FROM taboola_campaigns WHERE account_id = $1 ORDER BY id',
        [accountId],
      );
      return byName(rows);
    },
    async targeting(accountId, id) {
      const { rows } = await db.query<Targeting>(
        'SELECT targeting_type AS type, postal_codes AS codes FROM taboola_campaigns WHERE account_id = $1 AND id = $2',
        [accountId, campaignId(id)],
      );
      if (!rows[0]) throw campaignNotFound();
      return rows[0];
    },
    async setTargeting(accountId, id, targeting) {
      const { rows } = await db.query<Targeting>(
        `UPDATE taboola_campaigns SET targeting_type = $3, postal_codes = $4::text[], updated_at = now()
          WHERE account_id = $1 AND id = $2 RETURNING targeting_type AS type, postal_codes AS codes`,
        [accountId, campaignId(id), targeting.type, targeting.type === 'ALL' ? [] : targeting.codes],
      );
      if (!rows[0]) throw campaignNotFound();
      return rows[0];
    },
  };
}
