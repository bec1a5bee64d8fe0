import type { LandingColumn } from '../../../src/api/landings/contract';
import type { Db, Queryable } from '../../db/connection';
import type { Jobs } from '../jobs';
import { lockBuyerShared } from '../sales/buyers';
import { personOf, type Person } from '../sales/person';
import { DELIVER_QUEUE, queueDeliveries } from './deliver';
import type { FilteredLead } from './filters';
import { considered, judge, nextVerdict, type Candidate, type Judged } from './judge';
import { parisClock, type ParisClock } from './paris-time';

export interface EngineContext {
  db: Db;
  jobs: Jobs;
}

interface OfferedLead extends FilteredLead {
  id: number;
  landing_id: number;
  entry_status: string;
  departement: string;
  postal_code: string | null;
  columns: LandingColumn[];
  max_buyers: number;
}

type Outcome = 'delivered' | 'unmatched' | 'expired' | 'not_new';
type Offered = Candidate & { has_webhook: boolean };

const candidatesSql = `
  SELECT r.id, r.name, r.customer_id, c.name AS customer_name, c.active AS customer_active, c.webhook_url IS NOT NULL AS has_webhook,
         r.active, r.hour_start, r.hour_end, r.leads_number, r.zip,
         json_build_object('monday', r.monday, 'tuesday', r.tuesday, 'wednesday', r.wednesday, 'thursday', r.thursday,
                           'friday', r.friday, 'saturday', r.saturday, 'sunday', r.sunday) AS days,
         COALESCE(rep.count, 0) AS count, rep.last_delivery_at,
         json_build_object('hour', r.cap_hour, 'week', r.cap_week, 'month', r.cap_month) AS caps,
         json_build_object('hour', COALESCE(wh.count, 0), 'week', COALESCE(ww.count, 0), 'month', COALESCE(wm.count, 0)) AS counts,
         r.priority, r.weight, r.filters, r.exclusive
    FROM rules r
    JOIN customers c ON c.id = r.customer_id
    LEFT JOIN reports rep ON rep.rule_id = r.id AND rep.date = $3::date
    LEFT JOIN rule_windows wh ON wh.rule_id = r.id AND wh.span = 'hour' AND wh.start = $4::timestamp
    LEFT JOIN rule_windows ww ON ww.rule_id = r.id AND ww.span = 'week' AND ww.start = $5::timestamp
    LEFT JOIN rule_windows wm ON wm.rule_id = r.id AND wm.span = 'month' AND wm.start = $6::timestamp
   WHERE r.id IN (SELECT rule_id FROM rule_targets WHERE landing_id = $1 AND zip_key = ANY($2::text[]))`;

/** A sale of the same person to a customer within its dedupe window ('24 hours' each: days as the clock runs, DST or not). */
const boughtWithinSql = `
  SELECT DISTINCT s.customer_id FROM lead_sales s JOIN customers c ON c.id = s.customer_id
   WHERE s.customer_id = ANY($1::int[]) AND c.dedupe_days > 0 AND s.sold_at > $2::timestamptz - c.dedupe_days * interval '24 hours'
     AND (s.phone = $3 OR s.email = $4)`;

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

/** The same for the hour, week and month windows at once: the windows returned are those bumped (a capless one always is). */
const bumpWindowsSql = `
  INSERT INTO rule_windows AS w (rule_id, span, start, count, cap)
  SELECT r.id, v.span, v.start::timestamp, 1, CASE v.span WHEN 'hour' THEN r.cap_hour WHEN 'week' THEN r.cap_week ELSE r.cap_month END
    FROM rules r, (VALUES ('hour', $2), ('week', $3), ('month', $4)) AS v (span, start)
   WHERE r.id = $1
  ON CONFLICT (rule_id, span, start) DO UPDATE SET count = w.count + 1, cap = EXCLUDED.cap
   WHERE EXCLUDED.cap IS NULL OR w.count < EXCLUDED.cap
  RETURNING span`;

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
  /** When the rules are judged (their hours, days, windows and dedupe) and the sales are dated; the moment each lead is routed by default. */
  now?: Date;
  /** A customer never offered these leads: the one who returned them (a re-injected export). */
  excludeCustomerId?: number | null;
}

/**
 * Routes leads, each on its own: the rules of its landing and postal code are judged and the
 * best one takes it (or, shared, up to its landing's max_buyers), unless it expired. Answers each lead's outcome.
 */
export async function routeLeads(ctx: EngineContext, opts: RouteOptions): Promise<Map<number, Outcome>> {
  const { leads: leadIds, offeredAt, excludeCustomerId = null } = opts;
  const outcomes = new Map<number, Outcome>();
  if (leadIds.length === 0) return outcomes;
  const { rows } = await ctx.db.query<OfferedLead>(
    `SELECT l.id, l.landing_id, l.entry_status, l.departement, l.data, l.source, l.utm_source, l.utm_medium, l.utm_campaign,
            to_char(l.created_at AT TIME ZONE 'Europe/Paris', 'YYYY-MM-DD') AS arrival_day, ld.columns, ld.max_buyers,
            (SELECT l.data->>(c->>'key') FROM jsonb_array_elements(ld.columns) c WHERE c->>'type' = 'postal_code' LIMIT 1) AS postal_code
       FROM leads l JOIN landings ld ON ld.id = l.landing_id
      WHERE l.id = ANY($1::bigint[]) ORDER BY l.id`,
    [leadIds],
  );
  for (const lead of rows) {
    const now = opts.now ?? new Date();
    const expired = parisClock(offeredAt).day !== parisClock(now).day;
    outcomes.set(lead.id, await routeLead(ctx, lead, now, expired, excludeCustomerId));
  }
  if ([...outcomes.values()].includes('delivered')) ctx.jobs.wake(DELIVER_QUEUE);
  return outcomes;
}

/** The rules that could take a lead, with their counters at `clock` and whether their customer bought its person already. */
async function candidatesOf(db: Queryable, lead: OfferedLead, clock: ParisClock, now: Date, person: Person): Promise<Offered[]> {
  const { rows } = await db.query<Offered>(candidatesSql, [
    lead.landing_id,
    zipKeys(lead.postal_code, lead.departement),
    clock.day,
    clock.windows.hour,
    clock.windows.week,
    clock.windows.month,
  ]);
  const bought = new Set<number>();
  if (rows.length > 0 && (person.phone || person.email)) {
    const found = await db.query<{ customer_id: number }>(boughtWithinSql, [[...new Set(rows.map((r) => r.customer_id))], now, person.phone, person.email]);
    for (const r of found.rows) bought.add(r.customer_id);
  }
  return rows.map((r) => ({ ...r, sold_to_person: bought.has(r.customer_id) }));
}

async function routeLead(ctx: EngineContext, lead: OfferedLead, now: Date, expired: boolean, excludeCustomerId: number | null): Promise<Outcome> {
  const clock = parisClock(now);
  if (lead.entry_status !== 'new') {
    await record(ctx.db, lead, clock, 'not_new', []);
    return 'not_new';
  }
  const person = personOf(lead.data, lead.columns);
  const found = await candidatesOf(ctx.db, lead, clock, now, person);
  const rows = excludeCustomerId === null ? found : found.filter((c) => c.customer_id !== excludeCustomerId);
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
  const judged = judge(rows, clock, { lead, columns: lead.columns });
  if (judged[0]?.reason !== null) {
    await record(ctx.db, lead, clock, 'unmatched', judged);
    return 'unmatched';
  }
  for (let attempt = 1; ; attempt++) {
    // Each attempt marks the rules it finds full, beaten or left out on its own copy.
    const tried = judged.map((j) => ({ ...j }));
    try {
      return await ctx.db.tx((q) => claim(q, ctx.jobs, { lead, clock, now, person }, tried));
    } catch (err) {
      if (err instanceof NoWinner) {
        await record(ctx.db, lead, clock, err.outcome, tried);
        return err.outcome;
      }
      // Two instances taking the same counters or persons in opposite orders: PostgreSQL aborts one; it tries again.
      if (attempt < 10 && isRetryable(err)) continue;
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

interface Sale {
  lead: OfferedLead;
  clock: ParisClock;
  now: Date;
  person: Person;
}

/**
 * Takes one rule's share of a sale, or says why it cannot: the customer's shared lock (an export
 * to it waits) and its person lock (one transaction at a time sells a person to a customer; the
 * first commits its lead_sales row, the next sees it), then the hour, week and month counters, then
 * the day's (its report). Answers the report's id, or the reason, having undone what it bumped.
 */
async function take(q: Queryable, c: Offered, sale: Sale): Promise<{ report: number } | { reason: Judged['reason'] }> {
  await q.query('SAVEPOINT sale');
  const keys = [sale.person.phone && `p:${sale.person.phone}`, sale.person.email && `e:${sale.person.email}`].filter((k): k is string => !!k).sort();
  const undo = async (reason: Judged['reason']) => {
    await q.query('ROLLBACK TO SAVEPOINT sale');
    return { reason };
  };
  if (keys.length > 0) {
    await lockBuyerShared(q, c.customer_id);
    for (const key of keys) await q.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`person:${c.customer_id}:${key}`]);
    const bought = await q.query(boughtWithinSql, [[c.customer_id], sale.now, sale.person.phone, sale.person.email]);
    if (bought.rows.length > 0) return undo('already_sold_to_customer');
  }
  const { windows } = sale.clock;
  const bumped = new Set((await q.query<{ span: string }>(bumpWindowsSql, [c.id, windows.hour, windows.week, windows.month])).rows.map((r) => r.span));
  for (const span of ['hour', 'week', 'month'] as const) if (!bumped.has(span)) return undo(`cap_${span}`);
  const report = await q.query<{ id: number }>(bumpSql, [c.id, sale.clock.day, c.zip]);
  if (report.rows.length === 0) return undo('cap');
  await q.query('RELEASE SAVEPOINT sale');
  return { report: report.rows[0].id };
}

/**
 * One transaction: the open rules in the engine's order each take their share (windows and person
 * claimed; a rule found full or sold the person meanwhile is marked so and the next one tried)
 * until the first exclusive one bought it alone, or up to the landing's max_buyers non-exclusive
 * rules of different customers did; then the lead is claimed for the latest sale (`UPDATE …
 * WHERE entry_status = 'new' RETURNING`: one UPDATE, as every UPDATE of leads runs the monthly
 * statistics trigger), each sale recorded in lead_sales, the decision kept and the deliveries
 * queued. A lead taken meanwhile or no rule left rolls it all back, the counters included.
 */
async function claim(q: Queryable, jobs: Jobs, sale: Sale, judged: Judged[]): Promise<Outcome> {
  const sold: Array<{ rule: Offered; report: number }> = [];
  for (const j of judged) {
    if (j.reason !== null) continue;
    const c = j.candidate as Offered;
    j.reason = nextVerdict(
      c,
      sold.map((s) => s.rule),
      sale.lead.max_buyers,
    );
    if (j.reason !== null) continue;
    const taken = await take(q, c, sale);
    if ('reason' in taken) j.reason = taken.reason;
    else sold.push({ rule: c, report: taken.report });
  }
  if (sold.length === 0) throw new NoWinner('unmatched');
  const latest = sold[sold.length - 1];
  const claimed = await q.query(
    `UPDATE leads SET entry_status = 'extracted', sold_to = $2, rapport_id = $3, updated_at = now() WHERE id = $1 AND entry_status = 'new' RETURNING id`,
    [sale.lead.id, latest.rule.customer_name, latest.report],
  );
  if (claimed.rowCount === 0) throw new NoWinner('not_new');
  await q.query(
    `INSERT INTO lead_sales (lead_id, customer_id, rule_id, report_id, channel, price_cents, phone, email, sold_at)
     SELECT $1, s.customer_id, s.rule_id, s.report_id, 'live', 0, $4, $5, $6 FROM unnest($2::int[], $3::int[], $7::int[]) WITH ORDINALITY AS s (rule_id, report_id, customer_id, n)
      ORDER BY s.n`,
    [sale.lead.id, sold.map((s) => s.rule.id), sold.map((s) => s.report), sale.person.phone, sale.person.email, sale.now, sold.map((s) => s.rule.customer_id)],
  );
  await record(q, sale.lead, sale.clock, 'delivered', judged, latest.rule.id, latest.report);
  for (const s of sold) await queueDeliveries(q, jobs, { lead: sale.lead.id, report: s.report, webhook: s.rule.has_webhook });
  return 'delivered';
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
