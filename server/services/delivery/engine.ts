import type { LandingColumn } from '../../../src/api/landings/contract';
import type { Db, Queryable } from '../../db/connection';
import { raiseAlert } from '../alerts/raise';
import { writeEvents } from '../events/outbox';
import { statusEvents } from '../leads/status';
import type { Jobs } from '../jobs';
import { personOf, type Person } from '../sales/person';
import { boughtWithinParams, boughtWithinSql, ClaimLost, claimSales, type BatchSale, type Filled } from './claims';
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

export type Outcome = 'delivered' | 'unmatched' | 'expired' | 'not_new';
/** A rule as the batch reads it: a candidate of the leads listed, its customer's dedupe window and webhook. */
export type Offered = Candidate & { leads: number[]; has_webhook: boolean; dedupe_days: number };

/** The rules that could take any lead of a batch (by landing and lookup key), each with the leads it could take, its counters at the batch's moment and its customer's month. */
const candidatesSql = `
  WITH k AS (SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[]) AS k (lead_id, landing_id, zip_key)),
       t AS (SELECT rt.rule_id, array_to_json(array_agg(DISTINCT k.lead_id)) AS leads
               FROM k JOIN rule_targets rt ON rt.landing_id = k.landing_id AND rt.zip_key = k.zip_key GROUP BY rt.rule_id)
  SELECT t.leads, r.id, r.name, r.customer_id, c.name AS customer_name, c.active AS customer_active, c.webhook_url IS NOT NULL AS has_webhook,
         c.dedupe_days, r.active, r.hour_start, r.hour_end, r.leads_number, r.zip,
         json_build_object('monday', r.monday, 'tuesday', r.tuesday, 'wednesday', r.wednesday, 'thursday', r.thursday,
                           'friday', r.friday, 'saturday', r.saturday, 'sunday', r.sunday) AS days,
         COALESCE(rep.count, 0) AS count, rep.last_delivery_at,
         json_build_object('hour', r.cap_hour, 'week', r.cap_week, 'month', r.cap_month) AS caps,
         json_build_object('hour', COALESCE(wh.count, 0), 'week', COALESCE(ww.count, 0), 'month', COALESCE(wm.count, 0)) AS counts,
         r.priority, r.weight, r.filters, r.exclusive, COALESCE(r.price_cents, c.default_price_cents) AS price_cents,
         json_build_object('cents', c.monthly_budget_cents::float8, 'spent', COALESCE(cm.sold_cents - cm.credits_cents, 0)::float8) AS budget
    FROM t
    JOIN rules r ON r.id = t.rule_id
    JOIN customers c ON c.id = r.customer_id
    LEFT JOIN reports rep ON rep.rule_id = r.id AND rep.date = $4::date
    LEFT JOIN rule_windows wh ON wh.rule_id = r.id AND wh.span = 'hour' AND wh.start = $5::timestamp
    LEFT JOIN rule_windows ww ON ww.rule_id = r.id AND ww.span = 'week' AND ww.start = $6::timestamp
    LEFT JOIN rule_windows wm ON wm.rule_id = r.id AND wm.span = 'month' AND wm.start = $7::timestamp
    LEFT JOIN customer_months cm ON cm.customer_id = c.id AND cm.month = $8::date`;

/** The lookup keys of a lead in rule_targets: everywhere, its postal code, its department. */
export function zipKeys(postalCode: string | null, departement: string): string[] {
  const keys = [''];
  if (postalCode && /^\d{5}$/.test(postalCode)) keys.push(postalCode);
  if (departement) keys.push(departement);
  return keys;
}

/** Leads offered together: when they became new, and a customer never offered them. */
export interface Offer {
  leads: number[];
  /** When the leads became new: offered on an earlier Paris day than the routing's moment, they expired (they stay new). */
  offeredAt: Date;
  /** A customer never offered these leads: the one who returned them (a re-injected export). */
  excludeCustomerId?: number | null;
}

interface When {
  /** When the rules are judged (their hours, days, windows, dedupe and budgets) and the sales are dated; the moment of routing by default. */
  now?: Date;
}

/** One offer, or the offers a worker took together (one batch). */
export type RouteOptions = (Offer | { offers: Offer[] }) & When;

export interface Routed {
  outcomes: Map<number, Outcome>;
  /** The counters this routing filled (a rule's window or day at its cap, a customer's budget reached). */
  filled: Filled[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isRetryable = (err: unknown) => err instanceof ClaimLost || ['40P01', '40001'].includes((err as { code?: string }).code ?? '');

/**
 * Routes a batch of leads in one transaction, set-based: their candidates, the dedupe of their
 * persons and their counters are read in three statements; each lead is then judged in memory in
 * arrival order (id), as if routed alone after the ones before it (their sales counted in the
 * windows, days, budgets and persons it sees); then every sale is claimed at once (claimSales),
 * the leads claimed for their latest sale, the sales, the decisions and the deliveries written in
 * one statement each. A claim another transaction took first rolls it all back and the batch is
 * decided again from fresh counters. Each lead is decided once: claimed only if still new.
 */
export async function routeLeads(ctx: EngineContext, opts: RouteOptions): Promise<Routed> {
  const offers = 'offers' in opts ? opts.offers : [opts];
  const offerOf = new Map<number, Offer>();
  for (const offer of offers) for (const id of offer.leads) if (!offerOf.has(id)) offerOf.set(id, offer);
  if (offerOf.size === 0) return { outcomes: new Map(), filled: [] };
  for (let attempt = 1; ; attempt++) {
    const now = opts.now ?? new Date();
    try {
      const routed = await ctx.db.tx((q) => routeBatch(q, ctx.jobs, offerOf, now));
      if ([...routed.outcomes.values()].includes('delivered')) ctx.jobs.wake(DELIVER_QUEUE);
      return routed;
    } catch (err) {
      // Two instances claiming the same counters or persons: the loser decides again, after a short random wait.
      if (attempt < 20 && isRetryable(err)) {
        await sleep(Math.random() * 5 * attempt);
        continue;
      }
      throw err;
    }
  }
}

interface Decision {
  lead: OfferedLead;
  outcome: Outcome;
  judged: Judged[];
  sold: Offered[];
}

async function routeBatch(q: Queryable, jobs: Jobs, offerOf: Map<number, Offer>, now: Date): Promise<Routed> {
  const clock = parisClock(now);
  const { rows: leads } = await q.query<OfferedLead>(
    `SELECT l.id, l.landing_id, l.entry_status, l.departement, l.data, l.source, l.utm_source, l.utm_medium, l.utm_campaign,
            to_char(l.created_at AT TIME ZONE 'Europe/Paris', 'YYYY-MM-DD') AS arrival_day, ld.columns, ld.max_buyers,
            (SELECT l.data->>(c->>'key') FROM jsonb_array_elements(ld.columns) c WHERE c->>'type' = 'postal_code' LIMIT 1) AS postal_code
       FROM leads l JOIN landings ld ON ld.id = l.landing_id
      WHERE l.id = ANY($1::bigint[]) ORDER BY l.id`,
    [[...offerOf.keys()]],
  );
  const persons = new Map(leads.map((l) => [l.id, personOf(l.data, l.columns)]));
  const open = leads.filter((l) => l.entry_status === 'new' && parisClock(offerOf.get(l.id)!.offeredAt).day === clock.day);
  const rules = await candidatesOf(q, leads, clock);
  const rulesOf = new Map<number, Offered[]>();
  for (const r of rules) for (const id of r.leads) rulesOf.set(id, [...(rulesOf.get(id) ?? []), r]);
  const bought = await boughtBefore(q, open, rulesOf, persons, now);

  // The batch's own sales, as the next leads see them.
  const sales: BatchSale[] = [];
  const decisions: Decision[] = [];
  const spent = new Map(rules.map((r) => [r.customer_id, r.budget.spent]));
  // The batch's sales are stamped a millisecond apart after every last delivery read: the next leads (and batches) see them in order.
  const base = Math.max(now.getTime(), ...rules.map((r) => (r.last_delivery_at === null ? 0 : new Date(r.last_delivery_at).getTime())));
  for (const lead of leads) {
    const offer = offerOf.get(lead.id)!;
    const person = persons.get(lead.id)!;
    if (lead.entry_status !== 'new') {
      decisions.push({ lead, outcome: 'not_new', judged: [], sold: [] });
      continue;
    }
    const mine = (rulesOf.get(lead.id) ?? []).filter((r) => r.customer_id !== (offer.excludeCustomerId ?? null));
    if (parisClock(offer.offeredAt).day !== clock.day) {
      decisions.push({ lead, outcome: 'expired', judged: mine.map((candidate) => ({ candidate, reason: 'day' as const })), sold: [] });
      continue;
    }
    const candidates: Offered[] = mine.map((r) => ({
      ...r,
      counts: { ...r.counts },
      budget: { cents: r.budget.cents, spent: spent.get(r.customer_id)! },
      sold_to_person:
        bought.has(`${lead.id}:${r.customer_id}`) || (r.dedupe_days > 0 && sales.some((s) => s.customer_id === r.customer_id && samePerson(s.person, person))),
    }));
    const judged = judge(candidates, clock, { lead, columns: lead.columns });
    const sold: Offered[] = [];
    for (const j of judged) {
      if (j.reason !== null) continue;
      j.reason = nextVerdict(j.candidate, sold, lead.max_buyers);
      if (j.reason === null) sold.push(j.candidate as Offered);
    }
    for (const c of sold) {
      const rule = mine.find((r) => r.id === c.id)!;
      const stamp = new Date(base + sales.length + 1);
      rule.count++;
      for (const span of ['hour', 'week', 'month'] as const) rule.counts[span]++;
      rule.last_delivery_at = stamp;
      spent.set(c.customer_id, spent.get(c.customer_id)! + c.price_cents);
      sales.push({ lead: lead.id, rule_id: c.id, customer_id: c.customer_id, price_cents: c.price_cents, person, stamp });
    }
    decisions.push({ lead, outcome: sold.length > 0 ? 'delivered' : 'unmatched', judged, sold });
  }

  const { reports, filled, fills } = sales.length > 0 ? await claimSales(q, sales, clock, now) : { reports: new Map<number, number>(), filled: [], fills: [] };
  await writeEvents(q, 'rule.fill', fills, 'admins');
  // Raised in the routing's transaction: an alert exists iff the sale that filled its counter does.
  for (const f of filled)
    await raiseAlert(q, 'rule_id' in f ? { kind: 'cap_reached', ruleId: f.rule_id, span: f.span } : { kind: 'budget_reached', customerId: f.customer_id });
  const delivered = decisions.filter((d) => d.outcome === 'delivered');
  if (delivered.length > 0) {
    const latest = delivered.map((d) => d.sold[d.sold.length - 1]);
    const claimed = await q.query(
      `WITH claimed AS (
         UPDATE leads l SET entry_status = 'extracted', sold_to = v.sold_to, rapport_id = v.report_id, updated_at = now()
           FROM unnest($1::bigint[], $2::text[], $3::int[]) AS v (id, sold_to, report_id)
          WHERE l.id = v.id AND l.entry_status = 'new' RETURNING l.id, l.landing_id, 'new'::text AS prev),
       told AS (${statusEvents('claimed', 'prev', `'extracted'`, 'null')})
       SELECT id FROM claimed`,
      [delivered.map((d) => d.lead.id), latest.map((r) => r.customer_name), latest.map((r) => reports.get(r.id))],
    );
    if (claimed.rows.length !== delivered.length) throw new ClaimLost('a lead taken meanwhile');
    await q.query(
      `WITH sold AS (
         INSERT INTO lead_sales (lead_id, customer_id, rule_id, report_id, channel, price_cents, phone, email, sold_at)
         SELECT s.lead_id, s.customer_id, s.rule_id, s.report_id, 'live', s.price_cents, s.phone, s.email, $8
           FROM unnest($1::bigint[], $2::int[], $3::int[], $4::int[], $5::int[], $6::text[], $7::text[]) WITH ORDINALITY
                AS s (lead_id, customer_id, rule_id, report_id, price_cents, phone, email, n)
          ORDER BY s.n
         RETURNING id, lead_id, customer_id, rule_id)
       INSERT INTO events (type, audience, data)
       SELECT 'lead.sold', 'admins', jsonb_build_object('lead_id', s.lead_id, 'landing_id', l.landing_id, 'sale_id', s.id,
                'customer', jsonb_build_object('id', c.id, 'name', c.name), 'rule', jsonb_build_object('id', r.id, 'name', r.name), 'channel', 'live')
         FROM sold s JOIN leads l ON l.id = s.lead_id JOIN customers c ON c.id = s.customer_id JOIN rules r ON r.id = s.rule_id
        ORDER BY s.id`,
      [
        sales.map((s) => s.lead),
        sales.map((s) => s.customer_id),
        sales.map((s) => s.rule_id),
        sales.map((s) => reports.get(s.rule_id)),
        sales.map((s) => s.price_cents),
        sales.map((s) => s.person.phone),
        sales.map((s) => s.person.email),
        now,
      ],
    );
  }
  await record(q, decisions, clock, reports);
  const webhooks = new Map(rules.map((r) => [r.id, r.has_webhook]));
  await queueDeliveries(
    q,
    jobs,
    sales.map((s) => ({ lead: s.lead, report: reports.get(s.rule_id)!, webhook: webhooks.get(s.rule_id)! })),
  );
  return { outcomes: new Map(decisions.map((d) => [d.lead.id, d.outcome])), filled };
}

const samePerson = (a: Person, b: Person) => (a.phone !== null && a.phone === b.phone) || (a.email !== null && a.email === b.email);

/** The rules that could take the batch's leads, each with the leads it could take and its counters at `clock`. */
async function candidatesOf(q: Queryable, leads: OfferedLead[], clock: ParisClock): Promise<Offered[]> {
  const keys = leads.filter((l) => l.entry_status === 'new').flatMap((l) => zipKeys(l.postal_code, l.departement).map((key) => ({ lead: l, key })));
  if (keys.length === 0) return [];
  const rows = await candidateRules(
    q,
    keys.map((k) => ({ id: k.lead.id, landing_id: k.lead.landing_id, key: k.key })),
    clock,
  );
  return rows.map((r) => ({ ...r, sold_to_person: false }));
}

/**
 * The rules that could take leads given by id, landing and lookup key (`zipKeys`), each with the
 * ids it could take and its counters at `clock`. The coverage map (productions/coverage.ts) reads
 * the rules through it too, a landing's targets standing for the leads.
 */
export async function candidateRules(q: Queryable, keys: { id: number; landing_id: number; key: string }[], clock: ParisClock): Promise<Offered[]> {
  const { rows } = await q.query<Offered>(candidatesSql, [
    keys.map((k) => k.id),
    keys.map((k) => k.landing_id),
    keys.map((k) => k.key),
    clock.day,
    clock.windows.hour,
    clock.windows.week,
    clock.windows.month,
    clock.windows.month.slice(0, 10),
  ]);
  return rows;
}

/** Which customers of each lead's candidates bought its person within their dedupe window, as `lead:customer`. */
async function boughtBefore(
  q: Queryable,
  leads: OfferedLead[],
  rulesOf: Map<number, Offered[]>,
  persons: Map<number, Person>,
  now: Date,
): Promise<Set<string>> {
  const pairs = leads.flatMap((l) => {
    const person = persons.get(l.id)!;
    if (!person.phone && !person.email) return [];
    const customers = new Set((rulesOf.get(l.id) ?? []).filter((r) => r.dedupe_days > 0).map((r) => r.customer_id));
    return [...customers].map((customer_id) => ({ lead: l.id, customer_id, person }));
  });
  if (pairs.length === 0) return new Set();
  const { rows } = await q.query<{ lead_id: number; customer_id: number }>(boughtWithinSql, boughtWithinParams(pairs, now));
  return new Set(rows.map((r) => `${r.lead_id}:${r.customer_id}`));
}

/**
 * Keeps the batch's routing decisions, one per lead. A decision never overwrites a delivery
 * unless it is a delivery itself or the lead is new again (re-injected); 'not_new' only fills a gap.
 */
async function record(q: Queryable, decisions: Decision[], clock: ParisClock, reports: Map<number, number>) {
  const rows = decisions.map((d) => {
    const latest = d.sold[d.sold.length - 1];
    return {
      lead_id: d.lead.id,
      landing_id: d.lead.landing_id,
      outcome: d.outcome,
      rule_id: latest?.id ?? null,
      report_id: latest ? reports.get(latest.id) : null,
      considered: considered(d.judged),
    };
  });
  await q.query(
    `INSERT INTO lead_routings AS lr (lead_id, landing_id, outcome, rule_id, report_id, paris_time, considered, decided_at)
     SELECT d.lead_id, d.landing_id, d.outcome, d.rule_id, d.report_id, $2, d.considered, clock_timestamp()
       FROM jsonb_to_recordset($1::jsonb) AS d (lead_id bigint, landing_id int, outcome text, rule_id int, report_id int, considered jsonb)
     ON CONFLICT (lead_id) DO UPDATE SET outcome = EXCLUDED.outcome, rule_id = EXCLUDED.rule_id, report_id = EXCLUDED.report_id,
            paris_time = EXCLUDED.paris_time, considered = EXCLUDED.considered, decided_at = EXCLUDED.decided_at
      WHERE EXCLUDED.outcome <> 'not_new'
        AND (lr.outcome <> 'delivered' OR EXCLUDED.outcome = 'delivered' OR (SELECT entry_status FROM leads WHERE id = lr.lead_id) = 'new')`,
    [JSON.stringify(rows), `${clock.label} ${clock.weekday}`],
  );
}
