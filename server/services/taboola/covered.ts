import type { CampaignLandings, Covered } from '../../../src/api/taboola/contract';
import { toDepartement } from '../../../src/api/productions/contract';
import type { Db } from '../../db/connection';
import { validationFailed } from '../../errors';
import { audit } from '../audit';
import { getLandings } from '../leads/landings';
import { coverageOf } from '../productions/coverage';
import { codesOfDepartements } from './codes';
import type { TaboolaProvider } from './provider';
import { campaignNotFound } from './sandbox';
import { targetingChange } from './send';

interface Campaign {
  accountId: string;
  campaignId: string;
}

/** The landings a campaign feeds (none until an admin links some). */
export async function campaignLandings(db: Db, { accountId, campaignId }: Campaign): Promise<CampaignLandings> {
  const { rows } = await db.query<{ landing_ids: number[] }>('SELECT landing_ids FROM taboola_campaign_landings WHERE account_id = $1 AND campaign_id = $2', [
    accountId,
    campaignId,
  ]);
  return { landings: rows[0]?.landing_ids ?? [] };
}

/** Links a campaign of the account (else 404) to landings (each known, else 404), audited. */
export async function linkLandings(db: Db, taboola: TaboolaProvider, userId: number, campaign: Campaign, landings: number[]): Promise<CampaignLandings> {
  if (!(await taboola.campaigns(campaign.accountId)).some((c) => c.id === campaign.campaignId)) throw campaignNotFound();
  if (landings.length > 0) await getLandings(db, landings);
  await db.tx(async (q) => {
    await q.query(
      `INSERT INTO taboola_campaign_landings (account_id, campaign_id, landing_ids) VALUES ($1, $2, $3)
       ON CONFLICT (account_id, campaign_id) DO UPDATE SET landing_ids = EXCLUDED.landing_ids, updated_at = now()`,
      [campaign.accountId, campaign.campaignId, landings],
    );
    await audit(q, {
      actorId: userId,
      action: 'taboola.landings',
      entity: 'landings',
      count: landings.length,
      details: { account_id: campaign.accountId, campaign_id: campaign.campaignId, landings },
    });
  });
  return { landings };
}

/**
 * 'Cibler les zones couvertes': every postal code of the departments `open` at `at` for the
 * campaign's landings, as an INCLUDE list, and its change against the campaign's targeting read
 * from Taboola. Nothing is sent: the screen shows the change and sends it once confirmed.
 */
export async function coveredTargeting(db: Db, taboola: TaboolaProvider, campaign: Campaign, at?: Date): Promise<Covered> {
  const { landings } = await campaignLandings(db, campaign);
  if (landings.length === 0) {
    const message = 'Aucune landing liée à cette campagne : liez-en une avant de cibler les zones couvertes';
    throw validationFailed({ landings: message }, message);
  }
  const open = (await coverageOf(db, { landings, at })).filter((d) => d.state === 'open').map((d) => toDepartement(d.departement));
  const { codes } = open.length > 0 ? codesOfDepartements(open) : { codes: [] };
  const current = await taboola.targeting(campaign.accountId, campaign.campaignId);
  return { landings, departements: open, codes, change: targetingChange(current, { type: 'INCLUDE', codes }) };
}
