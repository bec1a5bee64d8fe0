import type { Queryable } from './connection';

/** Saved views of the demo (issue 28): the admin's and the staff's, some shared, so the sidebar lists a few under their landings. */
const DEMO_VIEWS = [
  {
    owner: 'admin',
    name: 'PAC 30 – Maisons',
    shared: true,
    landing: 'pac-air-eau',
    tab: 'new',
    filters: { contains: { departement: '30' }, values: { type_logement: ['Maison'] } },
  },
  { owner: 'staff', name: 'Air-Air au fioul', shared: true, landing: 'pac-air-air', tab: 'new', filters: { values: { chauffage_actuel: ['Fioul'] } } },
  { owner: 'staff', name: 'Mes archivés du Gard', shared: false, landing: 'pac-air-eau', tab: 'archived', filters: { contains: { departement: '30' } } },
  { owner: 'admin', name: 'Doublons solaires', shared: false, landing: 'panneaux-solaires', tab: 'doublons', filters: {} },
] as const;

export async function seedViews(q: Queryable, accounts: { admin: number; staff: number }): Promise<void> {
  for (const v of DEMO_VIEWS) {
    await q.query(
      `INSERT INTO views (owner_id, name, shared, landing_ids, tab, filters, sort)
       SELECT $1, $2, $3, ARRAY[l.id], $5, $6::jsonb, '{"key":"created_at","dir":"desc"}'::jsonb FROM landings l WHERE l.key = $4`,
      [accounts[v.owner], v.name, v.shared, v.landing, v.tab, JSON.stringify({ contains: {}, values: {}, dates: {}, ...v.filters })],
    );
  }
}
