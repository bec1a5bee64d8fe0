import { weekdays, type PassReason } from '../../src/api/rules/contract';
import { considered, judge, todaysRule, type Candidate } from '../services/delivery/judge';
import { parisClock } from '../services/delivery/paris-time';
import type { Queryable } from './connection';
import { bulkInsert, reserveIds } from './bulk';
import { DEMO_CUSTOMERS, type DemoRule } from './seed-data';
import type { SeedLanding, SeedLead } from './seed-leads';

/** Days of live delivery the demo has behind it (today included, up to now). */
const REPORT_DAYS = 30;
const DAY = 86_400_000;

export interface SeedRule extends DemoRule {
  id: number;
  customerId: number;
  customer: string;
  customerEmail: string;
  landingIds: number[];
  active: boolean;
}

/** The demo customers and their rules; `zip` holds department numbers, as the rule form takes them. */
export async function insertCustomersAndRules(q: Queryable, landings: SeedLanding[]): Promise<SeedRule[]> {
  const rules: SeedRule[] = [];
  for (const c of DEMO_CUSTOMERS) {
    const { rows } = await q.query<{ id: number }>(
      `INSERT INTO customers (name, email) VALUES ($1, $2)
       ON CONFLICT (lower(email)) DO UPDATE SET name = customers.name RETURNING id`,
      [c.name, c.email],
    );
    for (const rule of c.rules) {
      const landingIds = rule.landings.map((key) => landings.find((l) => l.key === key)!.id);
      const active = !rule.paused;
      const res = await q.query<{ id: number }>(
        `INSERT INTO rules (name, customer_id, landing_ids, zip, hour_start, hour_end, leads_number, active,
                            monday, tuesday, wednesday, thursday, friday, saturday, sunday, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, now() - interval '400 days') RETURNING id`,
        [
          rule.name,
          rows[0]!.id,
          landingIds,
          rule.departements,
          rule.hours[0],
          rule.hours[1],
          rule.leads_number,
          active,
          ...weekdays.map((d) => rule.days.includes(d)),
        ],
      );
      rules.push({ ...rule, id: res.rows[0]!.id, customerId: rows[0]!.id, customer: c.name, customerEmail: c.email, landingIds, active });
    }
  }
  return rules;
}

interface Routing {
  outcome: 'delivered' | 'unmatched';
  ruleId: number | null;
  reportId: number | null;
  /** The address the delivered lead was mailed to. */
  mailedTo: string | null;
  parisTime: string;
  considered: Array<{
    rule_id: number;
    rule_name: string;
    customer_id: number;
    customer_name: string;
    count: number;
    leads_number: number;
    reason: PassReason | null;
  }>;
  at: Date;
}

export interface LiveDemo {
  reports: unknown[][];
  routings: Map<SeedLead, Routing>;
}

/**
 * The last REPORT_DAYS days of live delivery, today up to `now` included, played with the
 * engine's own judgement (server/services/delivery/judge.ts): each new lead of a landing with
 * rules, in arrival order, goes to the least filled open rule of its postal code or department,
 * within its Paris day, hours and cap; a lead no rule takes stays new. Every decision is kept,
 * so the routing explanation answers for the demo leads too, and the start-up sweep finds
 * nothing left to offer.
 */
export async function deliverByRules(q: Queryable, rules: SeedRule[], leads: { all: SeedLead[] }, now: Date): Promise<LiveDemo> {
  const since = now.getTime() - REPORT_DAYS * DAY;
  const offered = leads.all
    .filter((l) => l.entry_status === 'new' && l.created_at.getTime() >= since)
    .sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
  const byLanding = new Map<number, SeedRule[]>();
  for (const rule of rules) for (const id of rule.landingIds) byLanding.set(id, [...(byLanding.get(id) ?? []), rule]);

  const reports = new Map<string, { id: number | null; rule: SeedRule; date: string; count: number; last: Date | null }>();
  const reportOf = (rule: SeedRule, date: string) => {
    const key = `${rule.id}|${date}`;
    return reports.get(key) ?? reports.set(key, { id: null, rule, date, count: 0, last: null }).get(key)!;
  };
  // Each rule has a report for each of its days, even with nothing delivered.
  for (let t = since; t <= now.getTime(); t += DAY) {
    const clock = parisClock(new Date(t));
    for (const rule of rules) if (rule.active && rule.days.includes(clock.weekday)) reportOf(rule, clock.day);
  }

  const routings = new Map<SeedLead, Routing>();
  const decided: Array<[SeedLead, SeedRule | null, string]> = [];
  for (const lead of offered) {
    const mine = byLanding.get(lead.landing_id);
    if (!mine) continue;
    const clock = parisClock(lead.created_at);
    const postal = String(lead.data.code_postal ?? '');
    const candidates: Candidate[] = mine
      .filter((r) => r.departements.length === 0 || r.departements.includes(lead.departement) || r.departements.includes(postal))
      .map((r) => {
        const rep = reports.get(`${r.id}|${clock.day}`);
        return {
          id: r.id,
          name: r.name,
          customer_id: r.customerId,
          customer_name: r.customer,
          customer_active: true,
          active: r.active,
          hour_start: r.hours[0],
          hour_end: r.hours[1],
          leads_number: r.leads_number,
          zip: r.departements,
          days: Object.fromEntries(weekdays.map((d) => [d, r.days.includes(d)])) as Candidate['days'],
          count: rep?.count ?? 0,
          last_delivery_at: rep?.last ?? null,
          ...todaysRule,
        };
      });
    const judged = judge(candidates, clock, {
      lead: { data: lead.data, source: null, utm_source: null, utm_medium: null, utm_campaign: null, arrival_day: clock.day },
      columns: [],
    });
    const winner = judged[0]?.reason === null ? mine.find((r) => r.id === judged[0]!.candidate.id)! : null;
    for (const j of judged.slice(1)) if (j.reason === null) j.reason = 'lost';
    const at = new Date(lead.created_at.getTime() + 2000);
    routings.set(lead, {
      outcome: winner ? 'delivered' : 'unmatched',
      ruleId: winner?.id ?? null,
      reportId: null,
      mailedTo: winner?.customerEmail ?? null,
      parisTime: `${clock.label} ${clock.weekday}`,
      considered: considered(judged),
      at,
    });
    if (winner) {
      const rep = reportOf(winner, clock.day);
      rep.count++;
      rep.last = at;
    }
    decided.push([lead, winner, clock.day]);
  }

  const list = [...reports.values()];
  const ids = await reserveIds(q, 'reports', list.length);
  list.forEach((rep, i) => (rep.id = ids[i]!));
  for (const [lead, winner, day] of decided) {
    if (!winner) continue;
    const rep = reports.get(`${winner.id}|${day}`)!;
    lead.entry_status = 'extracted';
    lead.rapport_id = rep.id;
    lead.sold_to = winner.customer;
    lead.updated_at = routings.get(lead)!.at;
    routings.get(lead)!.reportId = rep.id;
  }
  return {
    reports: list.map((rep) => [rep.id, rep.rule.id, rep.date, rep.rule.leads_number, rep.count, rep.rule.departements, rep.last]),
    routings,
  };
}

export const REPORT_COLUMNS = {
  id: 'integer',
  rule_id: 'integer',
  date: 'date',
  leads_number: 'integer',
  count: 'integer',
  zip: 'text[]',
  last_delivery_at: 'timestamptz',
};

/** The routing decisions, once the leads have their ids, and the delivery attempts of the delivered ones. */
export async function insertRoutings(q: Queryable, demo: LiveDemo, now: Date): Promise<void> {
  const rows = [...demo.routings].map(([lead, r]) => [
    lead.id,
    lead.landing_id,
    r.outcome,
    r.ruleId,
    r.reportId,
    r.parisTime,
    JSON.stringify(r.considered),
    r.at,
  ]);
  await bulkInsert(
    q,
    'lead_routings',
    {
      lead_id: 'bigint',
      landing_id: 'integer',
      outcome: 'text',
      rule_id: 'integer',
      report_id: 'integer',
      paris_time: 'text',
      considered: 'jsonb',
      decided_at: 'timestamptz',
    },
    rows,
  );
  await bulkInsert(q, 'deliveries', DELIVERY_COLUMNS, deliveryAttempts(demo, now));
}

const DELIVERY_COLUMNS = {
  lead_id: 'bigint',
  report_id: 'integer',
  channel: 'text',
  attempt: 'integer',
  status: 'text',
  target: 'text',
  error: 'text',
  will_retry: 'boolean',
  created_at: 'timestamptz',
};
/** One delivered lead in this many had its first mail refused by the server and sent on the retry, as happens. */
const RETRIED_EVERY = 40;
const RETRY_AFTER_MS = 20_000;

/**
 * The mail that handed each delivered lead to its customer (the demo customers have no webhook),
 * a few seconds after the decision, never after `now`: the reports' delivery log shows what the
 * counts say.
 */
function deliveryAttempts(demo: LiveDemo, now: Date): unknown[][] {
  const rows: unknown[][] = [];
  const at = (t: number) => new Date(Math.min(t, now.getTime()));
  let delivered = 0;
  for (const [lead, r] of demo.routings) {
    if (r.outcome !== 'delivered') continue;
    const first = r.at.getTime() + 3000;
    if (++delivered % RETRIED_EVERY === 0 && first + RETRY_AFTER_MS <= now.getTime()) {
      rows.push([lead.id, r.reportId, 'mail', 1, 'failed', r.mailedTo, 'Envoi impossible : 421 4.7.0 Try again later', true, at(first)]);
      rows.push([lead.id, r.reportId, 'mail', 2, 'sent', r.mailedTo, null, false, at(first + RETRY_AFTER_MS)]);
    } else {
      rows.push([lead.id, r.reportId, 'mail', 1, 'sent', r.mailedTo, null, false, at(first)]);
    }
  }
  return rows;
}
