import type { Db, Queryable } from '../../db/connection';
import type { Jobs } from '../jobs';
import { DELIVER_QUEUE, queueDeliveries } from './deliver';
import { considered, judge, type Candidate, type Judged } from './judge';
import { parisClock, type ParisClock } from './paris-time';

export interface EngineContext {
  db: Db;
  jobs: Jobs;
}

interface OfferedLead {
  id: number;
  landing_id: number;
  entry_status: string;
  departement: string;
  postal_code: string | null;
}

type Outcome = 'delivered' | 'unmatched' | 'expired' | 'not_new';

const candidatesSql = `
  SELECT r.id, r.name, r.customer_id, c.name AS customer_name, c.active AS customer_active, c.webhook_url IS NOT NULL AS has_webhook,
         r.active, r.hour_start, r.hour_end, r.leads_number, r.zip,
         json_build_object('monday', r.monday, 'tuesday', r.tuesday, 'wednesday', r.wednesday, 'thursday', r.thursday,
                           'friday', r.friday, 'saturday', r.saturday, 'sunday', r.sunday) AS days,
         COALESCE(rep.count, 0) AS count, rep.last_delivery_at
    FROM rules r
    JOIN customers c ON c.id = r.customer_id
    LEFT JOIN reports rep ON rep.rule_id = r.id AND rep.date = $3::date
   WHERE r.id IN (SELECT rule_id FROM rule_targets WHERE landing_id = $1 AND zip_key = ANY($2::text[]))`;

/**
 * Bumps a rule's counter of the day unless it reached its cap: the report row is the counter
 * (UNIQUE (rule_id, date)); the conditional upsert makes concurrent deliveries queue on that row
 * and each re-check the count, so no cap is ever passed. The cap is read again here, not taken
 * from the judgement: an admin may have lowered it since.
 */
const bumpSql = `
  INSERT INTO reports AS rep (rule_id, date, leads_number, count, zip, last_delivery_at)
  SELECT r.id, $2::date, r.leads_number, 1, $3::text[], clock_timestamp() FROM rules r WHERE r.id = $1
  ON CONFLICT (rule_id, date) DO UPDATE
     SET count = rep.count + 1, leads_number = EXCLUDED.leads_number, zip = EXCLUDED.zip, last_delivery_at = clock_timestamp()
   WHERE rep.count < EXCLUDED.leads_number
  RETURNING id`;

/** The lookup keys of a lead in rule_targets: everywhere, its postal code, its department. */
export function zipKeys(postalCode: string | null, departement: string): string[] {
  const keys = [''];
  if (postalCode && /^\d{5}$/.test(postalCode)) keys.push(postalCode);
  if (departement) keys.push(departement);
  return keys;
}

export interface RouteOptions {
  leads: number[];
  /** When the leads became new: offered on an earlier Paris day than `now`, they expired (they stay new). */
  offeredAt: Date;
  /** When the rules are judged (their hours, days and caps); now by default. */
  now?: Date;
  /** A customer never offered these leads: the one who returned them (a re-injected export). */
  excludeCustomerId?: number | null;
}

/**
 * Routes leads, each on its own: the rules of its landing and postal code are judged and the
 * best one takes it, unless it expired. Answers each lead's outcome.
 */
export async function routeLeads(ctx: EngineContext, opts: RouteOptions): Promise<Map<number, Outcome>> {
  const { leads: leadIds, offeredAt, now = new Date(), excludeCustomerId = null } = opts;
  const outcomes = new Map<number, Outcome>();
  if (leadIds.length === 0) return outcomes;
  const clock = parisClock(now);
  const expired = parisClock(offeredAt).day !== clock.day;
  const { rows } = await ctx.db.query<OfferedLead>(
    `SELECT l.id, l.landing_id, l.entry_status, l.departement,
            (SELECT l.data->>(c->>'key') FROM jsonb_array_elements(ld.columns) c WHERE c->>'type' = 'postal_code' LIMIT 1) AS postal_code
       FROM leads l JOIN landings ld ON ld.id = l.landing_id
      WHERE l.id = ANY($1::bigint[]) ORDER BY l.id`,
    [leadIds],
  );
  for (const lead of rows) outcomes.set(lead.id, await routeLead(ctx, lead, clock, expired, excludeCustomerId));
  if ([...outcomes.values()].includes('delivered')) ctx.jobs.wake(DELIVER_QUEUE);
  return outcomes;
}

async function routeLead(ctx: EngineContext, lead: OfferedLead, clock: ParisClock, expired: boolean, excludeCustomerId: number | null): Promise<Outcome> {
  if (lead.entry_status !== 'new') {
    await record(ctx.db, lead, clock, 'not_new', []);
    return 'not_new';
  }
  const found = await ctx.db.query<Candidate & { has_webhook: boolean }>(candidatesSql, [
    lead.landing_id,
    zipKeys(lead.postal_code, lead.departement),
    clock.day,
  ]);
  const rows = excludeCustomerId === null ? found.rows : found.rows.filter((c) => c.customer_id !== excludeCustomerId);
  if (expired) {
    await record(
      ctx.db,
      lead,
      clock,
      'expired',
      rows.map((candidate) => ({ candidate, reason: 'day' as const })),
    );
    return 'expired';
  }
  const judged = judge(rows, clock);
  if (judged[0]?.reason !== null) {
    await record(ctx.db, lead, clock, 'unmatched', judged);
    return 'unmatched';
  }
  for (let attempt = 1; ; attempt++) {
    // Each attempt marks the rules it finds full or beaten on its own copy.
    const tried = judged.map((j) => ({ ...j }));
    try {
      return await ctx.db.tx((q) => claim(q, ctx.jobs, lead, clock, tried));
    } catch (err) {
      if (err instanceof NoWinner) {
        await record(ctx.db, lead, clock, err.outcome, tried);
        return err.outcome;
      }
      // Two instances bumping the same counters in opposite orders: PostgreSQL aborts one; it tries again.
      if (attempt < 5 && isRetryable(err)) continue;
      throw err;
    }
  }
}

class NoWinner extends Error {
  constructor(readonly outcome: 'unmatched' | 'not_new') {
    super(outcome);
  }
}

const isRetryable = (err: unknown) => ['40P01', '40001'].includes((err as { code?: string }).code ?? '');

/**
 * One transaction: bump the day counter of the first open rule still under its cap (a rule found
 * full meanwhile is marked 'cap' and the next one tried), then claim the lead for it
 * (`UPDATE … WHERE entry_status = 'new' RETURNING`: one UPDATE, as every UPDATE of leads runs the
 * monthly statistics trigger), keep the decision and queue the deliveries. A lead taken meanwhile
 * or no rule left rolls it all back, the counter included.
 */
async function claim(q: Queryable, jobs: Jobs, lead: OfferedLead, clock: ParisClock, judged: Judged[]): Promise<Outcome> {
  for (const j of judged) {
    if (j.reason !== null) break;
    const c = j.candidate as Candidate & { has_webhook: boolean };
    const bumped = await q.query<{ id: number }>(bumpSql, [c.id, clock.day, c.zip]);
    if (bumped.rows.length === 0) {
      j.reason = 'cap';
      continue;
    }
    const reportId = bumped.rows[0].id;
    const claimed = await q.query(
      `UPDATE leads SET entry_status = 'extracted', sold_to = $2, rapport_id = $3, updated_at = now() WHERE id = $1 AND entry_status = 'new' RETURNING id`,
      [lead.id, c.customer_name, reportId],
    );
    if (claimed.rowCount === 0) throw new NoWinner('not_new');
    for (const other of judged) if (other !== j && other.reason === null) other.reason = 'lost';
    await record(q, lead, clock, 'delivered', judged, c.id, reportId);
    await queueDeliveries(q, jobs, { lead: lead.id, report: reportId, webhook: c.has_webhook });
    return 'delivered';
  }
  throw new NoWinner('unmatched');
}

/**
 * Keeps the lead's routing decision. A decision never overwrites a delivery unless it is a
 * delivery itself or the lead is new again (re-injected); 'not_new' only fills a gap.
 */
async function record(
  q: Queryable,
  lead: OfferedLead,
  clock: ParisClock,
  outcome: Outcome,
  judged: Judged[],
  ruleId: number | null = null,
  reportId: number | null = null,
) {
  await q.query(
    `INSERT INTO lead_routings AS lr (lead_id, landing_id, outcome, rule_id, report_id, paris_time, considered, decided_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, clock_timestamp())
     ON CONFLICT (lead_id) DO UPDATE SET outcome = EXCLUDED.outcome, rule_id = EXCLUDED.rule_id, report_id = EXCLUDED.report_id,
            paris_time = EXCLUDED.paris_time, considered = EXCLUDED.considered, decided_at = EXCLUDED.decided_at
      WHERE EXCLUDED.outcome <> 'not_new'
        AND (lr.outcome <> 'delivered' OR EXCLUDED.outcome = 'delivered' OR (SELECT entry_status FROM leads WHERE id = lr.lead_id) = 'new')`,
    [lead.id, lead.landing_id, outcome, ruleId, reportId, `${clock.label} ${clock.weekday}`, JSON.stringify(considered(judged))],
  );
}
