import type { AppContext } from '../../context';
import { retryOnConflict } from '../../db/retry';
import { conflict, notFound } from '../../errors';
import { audit } from '../audit';
import { offerLeads } from '../delivery/offer';
import { statusEvents } from '../leads/status';
import { buyerOf } from '../sales/buyers';
import { creditMonthsSql } from '../sales/credits';

/**
 * Re-injects an export ('Ré-insérer les leads'): in one statement of one transaction, the
 * export's leads still extracted under it go back to new, sold to nobody and under no export (the
 * file keeps them; a later sale is another export's), and its sales of them are returned; a
 * lead that changed status meanwhile (archived, converted, sold again) stays as it is, and their
 * prices are credited to the buyer's month (customer_months). Then the
 * delivery engine offers them to the rules again (in the background, as every new lead), except
 * to the customer who returned them: the export's buyer. Each lead moved writes its `leads.status`,
 * each sale returned its `lead.returned`, in the same statement.
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
      // The export's sales of these leads are returned (they stay in the buyer's history and dedupe
      // window) and credited on the buyer's month; the lead keeps no sale as its latest: no buyer, no export, nor the report the
      // export was made from.
      const moved = await q.query<{ id: number }>(
        `WITH moved AS (
           UPDATE leads l SET entry_status = 'new', sold_to = NULL, export_id = NULL, updated_at = now(),
                  rapport_id = CASE WHEN EXISTS (SELECT 1 FROM lead_sales s WHERE s.lead_id = l.id AND s.export_id = $1 AND s.report_id = l.rapport_id)
                                    THEN NULL ELSE l.rapport_id END
            WHERE l.export_id = $1 AND l.entry_status = 'extracted' RETURNING l.id, l.landing_id, 'extracted'::text AS prev
         ), told AS (${statusEvents('moved', 'prev', `'new'`, '(SELECT jsonb_build_object($$id$$, id, $$name$$, name) FROM users WHERE id = $2)')}
         ), returned AS (
           UPDATE lead_sales s SET returned_at = now(), return_reason = 'reinjected' FROM moved WHERE s.lead_id = moved.id AND s.export_id = $1 AND s.returned_at IS NULL
           RETURNING s.id, s.lead_id, s.customer_id, s.price_cents
         ), credited AS (${creditMonthsSql('returned')}
         ), returned_told AS (
           INSERT INTO events (type, audience, data)
           SELECT 'lead.returned', 'admins', jsonb_build_object('lead_id', m.id, 'landing_id', m.landing_id, 'sale_id', r.id,
                    'customer', jsonb_build_object('id', c.id, 'name', c.name))
             FROM returned r JOIN moved m ON m.id = r.lead_id JOIN customers c ON c.id = r.customer_id ORDER BY r.id)
         SELECT id FROM moved`,
        [exportId, actorId],
      );
      if (moved.rows.length === 0)
        throw conflict("Aucun lead de cet export n'est encore extrait (déjà réinjectés ou passés à un autre statut) : rien à réinjecter");
      await audit(q, { actorId, action: 'exports.reinject', entity: 'leads', count: moved.rows.length, details: { export_id: exportId } });
      const ids = moved.rows.map((r) => r.id);
      // Offered once committed, as every path that makes leads new, except to their buyer.
      offerLeads(ctx, q, { leads: ids, excludeCustomerId: (await buyerOf(q, exp.for_customer))?.id ?? null });
      return ids;
    });
  const ids = await retryOnConflict(move);
  return { count: ids.length };
}
