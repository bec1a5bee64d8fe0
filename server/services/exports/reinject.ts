import type { AppContext } from '../../context';
import { conflict, notFound } from '../../errors';
import { audit } from '../audit';

/**
 * Re-injects an export ('Ré-insérer les leads'): in one statement of one transaction, the
 * export's leads still extracted under it go back to new and are no longer sold to anyone; a
 * lead that changed status meanwhile (archived, converted, sold again) stays as it is. Then the
 * delivery rules get them again, except the customer who returned them.
 */
export async function reinjectExport(ctx: AppContext, actorId: number, exportId: number): Promise<{ count: number; delivered: number }> {
  const { rows } = await ctx.db.query<{ big_export: boolean; for_customer: string | null }>(
    'SELECT big_export, for_customer FROM exports WHERE id = $1',
    [exportId],
  );
  const exp = rows[0];
  if (!exp) throw notFound('Export introuvable');
  if (exp.big_export) throw conflict("Un export personnalisé n'a changé le statut d'aucun lead : il n'y a rien à réinjecter");
  const ids = await ctx.db.tx(async (q) => {
    const moved = await q.query<{ id: number }>(
      `UPDATE leads SET entry_status = 'new', sold_to = NULL, updated_at = now()
        WHERE export_id = $1 AND entry_status = 'extracted' RETURNING id`,
      [exportId],
    );
    if (moved.rowCount === 0) throw conflict("Aucun lead de cet export n'est encore extrait (déjà réinjectés ou passés à un autre statut) : rien à réinjecter");
    await audit(q, actorId, 'exports.reinject', 'leads', moved.rowCount, { export_id: exportId });
    return moved.rows.map((r) => r.id);
  });
  const delivered = await offerAgain(ctx, ids, exp.for_customer);
  return { count: ids.length, delivered };
}

/**
 * The one place re-injected leads meet the delivery engine (issue 17, server/services/delivery/,
 * built in parallel): it is to offer `leadIds` to the active rules, never to the customer named
 * `returnedBy`, and answer how many a rule took. Until the engine is merged, the leads simply wait
 * in 'new' for staff, as they did before live delivery existed.
 */
async function offerAgain(_ctx: AppContext, _leadIds: number[], _returnedBy: string | null): Promise<number> {
  return 0;
}
