import type { Queryable } from '../../server/db/connection';

/** The form columns of the landings the browser tests make for themselves. */
const COLUMNS = [
  { key: 'nom', label: 'Nom', type: 'text', required: true },
  { key: 'prenom', label: 'Prénom', type: 'text', required: true },
  { key: 'telephone', label: 'Téléphone', type: 'phone', required: true },
  { key: 'email', label: 'Email', type: 'email', required: true },
  { key: 'code_postal', label: 'Code postal', type: 'postal_code', required: true },
];

/** A new, empty PAC landing named `name`; answers its id and intake key. */
export async function createLanding(db: Queryable, name: string): Promise<{ id: number; key: string }> {
  const key = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const { rows } = await db.query<{ id: number }>(`INSERT INTO landings (key, name, category, columns) VALUES ($1, $2, 'pac', $3) RETURNING id`, [
    key,
    name,
    JSON.stringify(COLUMNS),
  ]);
  return { id: rows[0].id, key };
}
