import { foldText } from '../../../src/shared/foldText';
import type { Queryable } from '../../db/connection';
import type { AppContext } from '../../context';
import { conflict, notFound } from '../../errors';
import { audit } from '../audit';
import { offerLeads } from '../delivery/offer';

/**
 * Re-injects an export ('Ré-insérer les leads'): in one statement of one transaction, the
 * export's leads still extracted under it go back to new, sold to nobody and under no export (the
 * file keeps them; a later sale is another export's); a
 * lead that changed status meanwhile (archived, converted, sold again) stays as it is. Then the
 * delivery engine offers them to the rules again (in the background, as every new lead), except
 * to the customer who returned them: the export's buyer.
 */
export async function reinjectExport(ctx: AppContext, actorId: number, exportId: number): Promise<{ count: number }> {
  const { rows } = await ctx.db.query<{ big_export: boolean; for_customer: string | null }>('SELECT big_export, for_customer FROM exports WHERE id = $1', [
    exportId,
  ]);
  const exp = rows[0];
  if (!exp) throw notFound('Export introuvable');
  if (exp.big_export) throw conflict("Un export personnalisé n'a changé le statut d'aucun lead : il n'y a rien à réinjecter");
  const move = () =>
    ctx.db.tx(async (q) => {
      const moved = await q.query<{ id: number }>(
        `UPDATE leads SET entry_status = 'new', sold_to = NULL, export_id = NULL, updated_at = now()
          WHERE export_id = $1 AND entry_status = 'extracted' RETURNING id`,
        [exportId],
      );
      if (moved.rowCount === 0)
        throw conflict("Aucun lead de cet export n'est encore extrait (déjà réinjectés ou passés à un autre statut) : rien à réinjecter");
      await audit(q, { actorId, action: 'exports.reinject', entity: 'leads', count: moved.rowCount, details: { export_id: exportId } });
      const ids = moved.rows.map((r) => r.id);
      // Offered once committed, as every path that makes leads new, except to their buyer.
      offerLeads(ctx, q, { leads: ids, excludeCustomerId: await customerNamed(q, exp.for_customer) });
      return ids;
    });
  const ids = await retryOnDeadlock(move);
  return { count: ids.length };
}

/**
 * A buyer's name as 'Vendu à' may hold it, typed freely: without accents, case, typographic
 * apostrophes or repeated spaces ("RENOV'EXPERT  sud" is the customer 'Rénov’Expert Sud').
 */
const customerKey = (name: string) =>
  foldText(name)
    .replace(/[’‘ʼ`´]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();

/** The customer an export's free-typed buyer names, if any: the engine knows customers by id only. */
async function customerNamed(q: Queryable, name: string | null): Promise<number | null> {
  if (!name) return null;
  const { rows } = await q.query<{ id: number; name: string }>('SELECT id, name FROM customers ORDER BY id');
  const key = customerKey(name);
  return rows.find((c) => customerKey(c.name) === key)?.id ?? null;
}

/**
 * A bulk status change locking the same leads in another order can deadlock with the re-injection
 * on PostgreSQL, which then aborts one of them whole; the re-injection simply runs again.
 */
async function retryOnDeadlock<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= 3 || !['40P01', '40001'].includes((err as { code?: string }).code ?? '')) throw err;
    }
  }
}
