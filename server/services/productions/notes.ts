import {
  defaultSelection,
  toRegion,
  type DepartmentCode,
  type Production,
  type ProductionCategory,
  type ProductionRegion,
} from '../../../src/api/productions/contract';
import type { Db, Queryable } from '../../db/connection';
import type { SessionUser } from '../auth/sessions';
import { audit } from '../audit';
import { departementOf } from './departments';

/** The notes and colours saved for a category, and its saved selection (Gard and Hérault before any). */
export async function getProduction(db: Queryable, category: ProductionCategory): Promise<Production> {
  const notes = await db.query<{ departement: string; text: string; color: string | null }>(
    `SELECT departement, text, color FROM department_notes WHERE category = $1 AND (text <> '' OR color IS NOT NULL) ORDER BY departement`,
    [category],
  );
  const selection = await db.query<{ departements: string[] }>('SELECT departements FROM production_selections WHERE category = $1', [category]);
  return {
    regions: notes.rows.map((r) => ({ region: toRegion(r.departement), text: r.text, color: r.color })),
    selected: selection.rows[0] ? selection.rows[0].departements.map(toRegion) : defaultSelection,
  };
}

/** Saves a department's note as typed (HTML stays text: the screen shows it as text). */
export async function saveNote(db: Db, user: SessionUser, category: ProductionCategory, region: DepartmentCode, text: string): Promise<ProductionRegion> {
  const departement = departementOf(region);
  return db.tx(async (q) => {
    const { rows } = await q.query<{ text: string; color: string | null }>(
      `INSERT INTO department_notes (category, departement, text, updated_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (category, departement) DO UPDATE SET text = excluded.text, updated_by = excluded.updated_by, updated_at = now()
       RETURNING text, color`,
      [category, departement, text, user.id],
    );
    await audit(q, {
      actorId: user.id,
      action: 'production.note',
      entity: 'department_notes',
      count: 1,
      details: { category, departement, length: text.length },
    });
    return { region, text: rows[0].text, color: rows[0].color };
  });
}

/**
 * Saves the selection of a category and gives its departments the colour (null takes it off,
 * undefined leaves their colours alone), in one transaction.
 */
export async function saveSelection(db: Db, user: SessionUser, category: ProductionCategory, regions: DepartmentCode[], color: string | null | undefined) {
  const departements = regions.map(departementOf);
  return db.tx(async (q) => {
    await q.query(
      `INSERT INTO production_selections (category, departements, updated_by) VALUES ($1, $2, $3)
       ON CONFLICT (category) DO UPDATE SET departements = excluded.departements, updated_by = excluded.updated_by, updated_at = now()`,
      [category, departements, user.id],
    );
    if (color === undefined) {
      await audit(q, {
        actorId: user.id,
        action: 'production.selection',
        entity: 'production_selections',
        count: departements.length,
        details: { category, departements },
      });
      return { selected: regions };
    }
    if (departements.length > 0) {
      await q.query(
        `INSERT INTO department_notes (category, departement, color, updated_by) SELECT $1, d, $3, $4 FROM unnest($2::text[]) d
         ON CONFLICT (category, departement) DO UPDATE SET color = excluded.color, updated_by = excluded.updated_by, updated_at = now()`,
        [category, departements, color, user.id],
      );
    }
    await audit(q, {
      actorId: user.id,
      action: 'production.color',
      entity: 'department_notes',
      count: departements.length,
      details: { category, departements, color },
    });
    return { selected: regions, color };
  });
}
