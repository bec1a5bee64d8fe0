import { createHash, randomBytes } from 'node:crypto';
import { postalCodesByDepartement } from '../services/geo';
import type { Queryable } from './connection';

/** The administration screens' demo: an account still invited, and the Taboola sandbox. */
export async function seedAdminDemo(q: Queryable): Promise<void> {
  await seedInvitedAccount(q);
  await seedTaboolaSandbox(q);
}

/** An account created yesterday whose holder has not chosen a password yet (its link is nobody's). */
async function seedInvitedAccount(q: Queryable): Promise<void> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO users (email, name, password_hash, admin, created_at) VALUES ('camille.roux@example.fr', 'Camille Roux', NULL, false, now() - interval '1 day')
     ON CONFLICT (lower(email)) DO NOTHING RETURNING id`,
  );
  if (!rows[0]) return;
  await q.query(
    `INSERT INTO password_links (token_hash, user_id, purpose, created_at, expires_at) VALUES ($1, $2, 'invite', now() - interval '1 day', now() + interval '1 day')`,
    [createHash('sha256').update(randomBytes(32)).digest('hex'), rows[0].id],
  );
}

/** The Taboola sandbox's demo: advertiser accounts and campaigns, some already targeting postal codes. */
const ACCOUNTS = [
  {
    account_id: 'ecohabitat-sud',
    name: 'ÉcoHabitat Sud',
    campaigns: [
      // Linked to the PAC landings (issue 27): 'Cibler les zones couvertes' targets where their rules sell.
      { name: 'PAC Gard – printemps', type: 'INCLUDE', departements: ['30'], landings: ['PAC Air-Eau', 'PAC Air-Air'] },
      { name: 'PAC Hérault – retargeting', type: 'INCLUDE', departements: ['34'] },
      { name: 'PAC Occitanie – notoriété', type: 'ALL', departements: [] },
    ],
  },
  {
    account_id: 'solaire-rhone-alpes',
    name: 'Solaire Rhône-Alpes',
    campaigns: [
      { name: 'PV Ain et Savoie', type: 'INCLUDE', departements: ['01', '73'] },
      { name: 'PV Lyon métropole', type: 'ALL', departements: [] },
    ],
  },
  {
    account_id: 'isolation-nationale',
    name: 'Isolation Nationale',
    campaigns: [
      { name: 'Isolation – France entière', type: 'ALL', departements: [] },
      { name: 'Isolation – Corse', type: 'INCLUDE', departements: ['2A', '2B'] },
    ],
  },
] as const;

export async function seedTaboolaSandbox(q: Queryable): Promise<void> {
  const byDep = postalCodesByDepartement();
  for (const a of ACCOUNTS) {
    await q.query('INSERT INTO taboola_accounts (account_id, name) VALUES ($1, $2) ON CONFLICT (account_id) DO NOTHING', [a.account_id, a.name]);
    for (const c of a.campaigns) {
      const codes = c.departements.flatMap((d) => (byDep.get(d) ?? []).map((pc) => pc.code));
      const { rows } = await q.query<{ id: number }>(
        'INSERT INTO taboola_campaigns (account_id, name, targeting_type, postal_codes) VALUES ($1, $2, $3, $4::text[]) RETURNING id',
        [a.account_id, c.name, c.type, codes],
      );
      if ('landings' in c)
        await q.query(
          `INSERT INTO taboola_campaign_landings (account_id, campaign_id, landing_ids)
           SELECT $1, $2, COALESCE(array_agg(id ORDER BY id), '{}') FROM landings WHERE name = ANY($3::text[])`,
          [a.account_id, String(rows[0].id), c.landings],
        );
    }
  }
}
