import type { RoutingCandidate, RoutingResponse } from '../../../src/api/rules/contract';
import type { Queryable } from '../../db/connection';
import { notFound } from '../../errors';
import { zipKeys } from '../delivery/engine';

/** Rules of other landings listed at most (the explanation stays readable with 1,000 rules). */
const OTHER_LANDINGS_MAX = 200;

/**
 * Why a lead of landing `landingId` went where it went, or nowhere: the decision the engine kept
 * (rules of its landing and postal code, in the order tried), then the rules of that landing
 * left out by their postal codes ('zip'), then rules of other landings ('landing'). A rule of the
 * landing that covers the lead's postal code but was never tried (the lead was not offered: not
 * new, or not yet) has no reason to give and is not listed.
 */
export async function explainRouting(db: Queryable, landingId: number, leadId: number): Promise<RoutingResponse['data']> {
  const lead = (
    await db.query<{
      entry_status: string;
      departement: string;
      postal_code: string | null;
      outcome: string | null;
      rule_id: number | null;
      decided_at: string | null;
      paris_time: string | null;
      considered: RoutingCandidate[] | null;
    }>(
      `SELECT l.entry_status, l.departement, lr.outcome, lr.rule_id, to_json(lr.decided_at) #>> '{}' AS decided_at, lr.paris_time, lr.considered,
              (SELECT l.data->>(c->>'key') FROM jsonb_array_elements(ld.columns) c WHERE c->>'type' = 'postal_code' LIMIT 1) AS postal_code
         FROM leads l JOIN landings ld ON ld.id = l.landing_id LEFT JOIN lead_routings lr ON lr.lead_id = l.id
        WHERE l.id = $1 AND l.landing_id = $2`,
      [leadId, landingId],
    )
  ).rows[0];
  if (!lead) throw notFound('Lead introuvable');

  const stored = lead.considered ?? [];
  const seen = stored.map((c) => c.rule_id);
  const { rows: current } = await db.query<{ id: number; name: string; deleted: boolean }>(
    'SELECT id, name, deleted_at IS NOT NULL AS deleted FROM rules WHERE id = ANY($1::int[])',
    [seen],
  );
  const byId = new Map(current.map((r) => [r.id, r]));
  const considered: RoutingCandidate[] = stored.map((c) => ({
    ...c,
    rule_name: byId.get(c.rule_id)?.name ?? c.rule_name,
    deleted: byId.get(c.rule_id)?.deleted ?? true,
  }));

  // A rule of the landing is left out by its postal codes when its list (empty = everywhere) holds
  // none of the lead's keys, as the engine's lookup in rule_targets reads it.
  const { rows: others } = await db.query<RoutingCandidate & { here: boolean }>(
    `SELECT r.id AS rule_id, r.name AS rule_name, r.customer_id, c.name AS customer_name, false AS deleted,
            COALESCE(rep.count, 0) AS count, r.leads_number, $2::int = ANY(r.landing_ids) AS here
       FROM rules r JOIN customers c ON c.id = r.customer_id
       LEFT JOIN reports rep ON rep.rule_id = r.id AND rep.date = (now() AT TIME ZONE 'Europe/Paris')::date
      WHERE r.deleted_at IS NULL AND NOT (r.id = ANY($1::int[])) AND ($3::timestamptz IS NULL OR r.created_at <= $3)
        AND NOT ($2::int = ANY(r.landing_ids) AND (cardinality(r.zip) = 0 OR r.zip && $4::text[]))
      ORDER BY ($2::int = ANY(r.landing_ids)) DESC, r.id LIMIT ${OTHER_LANDINGS_MAX}`,
    [seen, landingId, lead.decided_at, zipKeys(lead.postal_code, lead.departement)],
  );
  for (const { here, ...o } of others) considered.push({ ...o, reason: here ? 'zip' : 'landing' });

  // The rules that bought it, in the order served; the latest is the lead's (rule_id, sold_to).
  const delivered = lead.outcome === 'delivered';
  const buyers = delivered
    ? stored.filter((c) => c.reason === null).map(({ rule_id, customer_id, customer_name }) => ({ rule_id, customer_id, customer_name }))
    : [];
  const outcome = lead.outcome === null ? (lead.entry_status === 'new' ? 'pending' : 'not_new') : (lead.outcome as RoutingResponse['data']['outcome']);
  return {
    lead_id: leadId,
    landing_id: landingId,
    outcome,
    decided_at: lead.decided_at,
    paris_time: lead.paris_time,
    rule_id: delivered ? lead.rule_id : null,
    customer_name: delivered ? (buyers.find((c) => c.rule_id === lead.rule_id)?.customer_name ?? null) : null,
    buyers,
    considered,
  };
}
