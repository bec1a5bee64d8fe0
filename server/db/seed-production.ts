import type { Queryable } from './connection';

/**
 * The production map's demo: colours given to departments of each category (the selection of
 * Gard and Hérault in PAC among them) and notes beyond those of the base seed, one with markup
 * typed as text.
 */
export async function seedProduction(q: Queryable, adminId: number) {
  const colours: Array<[string, string, string]> = [
    ['pac', '30', '#d97706'],
    ['pac', '34', '#d97706'],
    ['pac', '13', '#dc2626'],
    ['pac', '69', '#16a34a'],
    ['pv', '84', '#16a34a'],
    ['pv', '06', '#7c3aed'],
    ['other', '33', '#0d9488'],
  ];
  for (const [category, departement, color] of colours) {
    await q.query(
      `INSERT INTO department_notes (category, departement, color, updated_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (category, departement) DO UPDATE SET color = excluded.color`,
      [category, departement, color, adminId],
    );
  }
  const notes: Array<[string, string, string]> = [
    ['pac', '2A', 'Installateur partenaire à Ajaccio, délais de pose de 3 semaines.'],
    ['pac', '69', 'Lyon : beaucoup de copropriétés, privilégier les maisons individuelles.'],
    ['pv', '34', "Demande forte après l'été ; <b>relancer</b> les devis de plus de 15 jours."],
    ['other', '69', 'Nouveaux partenaires combles depuis septembre.'],
  ];
  for (const [category, departement, text] of notes) {
    await q.query(
      `INSERT INTO department_notes (category, departement, text, updated_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (category, departement) DO UPDATE SET text = excluded.text`,
      [category, departement, text, adminId],
    );
  }
}
