import { leadFilterColumns, weekdays, type RuleDraft, type RuleSimulation } from '../../../src/api/rules/contract';
import type { LandingColumn } from '../../../src/api/landings/contract';
import { maxSerialId } from '../../../src/api/ids';
import type { Queryable } from '../../db/connection';
import { notFound, validationFailed } from '../../errors';
import { referenceErrors, ruleNotFound } from '../lives/rules';
import { personOf } from '../sales/person';
import { zipKeys } from './engine';
import { parisClock } from './paris-time';
import {
  parisClockAt,
  replay,
  type Credit,
  type PastSale,
  type ReplayCustomer,
  type ReplayLead,
  type ReplayRule,
  type ReplaySale,
  type ReplayWorld,
} from './replay';

/** The rules as the replay reads them ($1: their ids, or null for every rule of the landings $2). */
const rulesSql = `
  SELECT r.id, r.name, r.customer_id, r.landing_ids, r.zip, r.active, r.hour_start, r.hour_end, r.leads_number,
         json_build_object(${weekdays.map((d) => `'${d}', r.${d}`).join(', ')}) AS days,
         json_build_object('hour', r.cap_hour, 'week', r.cap_week, 'month', r.cap_month) AS caps,
         r.priority, r.weight, r.filters, r.exclusive, r.price_cents
    FROM rules r
   WHERE r.deleted_at IS NULL AND (r.id = ANY($1::int[]) OR r.landing_ids && $2::int[])
   ORDER BY r.id`;

/** The id a new rule would get after every other: the judge's last tie-break (oldest rule) treats it as the newest. */
const newRuleId = maxSerialId;

/** The draft as a rule of the replay, with the rule it replaces (edit, delete). */
async function draftRules(db: Queryable, draft: RuleDraft): Promise<{ current: ReplayRule | null; next: ReplayRule | null }> {
  if (draft.kind === 'new') {
    const r = draft.rule;
    const errors = await referenceErrors(db, r.customer_id, r.landings, r.filters);
    if (Object.keys(errors).length) throw validationFailed(prefixed('rule', errors));
    const next: ReplayRule = {
      id: newRuleId,
      name: r.name,
      customer_id: r.customer_id,
      landing_ids: r.landings,
      zip: r.zip,
      active: r.active,
      hour_start: r.hours.start,
      hour_end: r.hours.end,
      leads_number: r.leads_number,
      days: Object.fromEntries(weekdays.map((d) => [d, r[d]])) as ReplayRule['days'],
      caps: r.caps,
      priority: r.priority,
      weight: r.weight,
      filters: r.filters,
      exclusive: r.exclusive,
      price_cents: r.price_cents,
    };
    return { current: null, next };
  }
  const current = (await db.query<ReplayRule>(rulesSql, [[draft.id], []])).rows[0];
  if (!current) throw notFound(ruleNotFound);
  if (draft.kind === 'delete') return { current, next: null };
  const c = draft.changes;
  /** A field sent replaces the rule's (null included: a cap, a weight or a price lifted). */
  const or = <T>(sent: T | undefined, kept: T): T => (sent === undefined ? kept : sent);
  const next: ReplayRule = {
    ...current,
    name: or(c.name, current.name),
    customer_id: or(c.customer_id, current.customer_id),
    landing_ids: or(c.landings, current.landing_ids),
    zip: or(c.zip, current.zip),
    active: or(c.active, current.active),
    hour_start: or(c.hours?.start, current.hour_start),
    hour_end: or(c.hours?.end, current.hour_end),
    leads_number: or(c.leads_number, current.leads_number),
    days: Object.fromEntries(weekdays.map((d) => [d, or(c[d], current.days[d])])) as ReplayRule['days'],
    caps: { hour: or(c.caps?.hour, current.caps.hour), week: or(c.caps?.week, current.caps.week), month: or(c.caps?.month, current.caps.month) },
    priority: or(c.priority, current.priority),
    weight: or(c.weight, current.weight),
    filters: or(c.filters, current.filters),
    exclusive: or(c.exclusive, current.exclusive),
    price_cents: or(c.price_cents, current.price_cents),
  };
  const errors = await referenceErrors(db, c.customer_id, next.landing_ids, next.filters);
  if (Object.keys(errors).length) throw validationFailed(prefixed('rule.changes', errors));
  return { current, next };
}

const prefixed = (path: string, errors: Record<string, string>) =>
  Object.fromEntries(Object.entries(errors).map(([field, message]) => [`${path}.${field}`, message]));

/** The Paris days of the simulation, first to today. */
function parisDays(today: string, days: number): string[] {
  return Array.from({ length: days }, (_, i) => {
    const d = new Date(`${today}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() - (days - 1 - i));
    return d.toISOString().slice(0, 10);
  });
}

/**
 * The leads of the landings that arrived since `from` and were offered to the engine, or would have
 * been (new and never routed), in arrival order; of the form's values only those filters name
 * (`keys`, $4: small objects to parse, not whole forms). One row holding one JSON array of
 * arrays (the columns of leadColumns, in order): a single JSON.parse instead of a row object
 * decoded field by field per lead, the read's dearest part.
 */
const leadsSql = (keys: number) => `
  WITH k AS (SELECT id, landing_column_key(columns, 'postal_code') AS pc, landing_column_key(columns, 'phone') AS phone,
                    landing_column_key(columns, 'email') AS email FROM landings WHERE id = ANY($1::int[]))
  SELECT coalesce(json_agg(json_build_array(
           l.id, l.landing_id, (extract(epoch FROM l.created_at) * 1000)::float8, l.departement, l.data ->> k.pc,
           l.data ->> k.phone, l.data ->> k.email, l.source, l.utm_source, l.utm_medium, l.utm_campaign,
           ${keys === 0 ? 'NULL' : `jsonb_build_object(${Array.from({ length: keys }, (_, i) => `($4::text[])[${i + 1}], l.data -> ($4::text[])[${i + 1}]`).join(', ')})`}
         ) ORDER BY l.created_at, l.id), '[]') AS leads
    FROM leads l JOIN k ON k.id = l.landing_id
    LEFT JOIN lead_routings lr ON lr.lead_id = l.id
   WHERE l.landing_id = ANY($1::int[]) AND l.created_at >= $2 AND l.created_at <= $3
     AND (lr.outcome IN ('delivered', 'unmatched') OR (lr.lead_id IS NULL AND l.entry_status = 'new'))`;

/** A lead as leadsSql answers it. */
type LeadRow = [
  id: number,
  landing_id: number,
  at: number,
  departement: string,
  postal_code: string | null,
  phone: string | null,
  email: string | null,
  source: string | null,
  utm_source: string | null,
  utm_medium: string | null,
  utm_campaign: string | null,
  data: Record<string, unknown> | null,
];

/**
 * The recorded sales to the customers that count before and during the replay: sold since `$2`
 * (the dedupe windows, the week and month the replay starts in), or returned since `$3` (the month's credits).
 */
const salesSql = `
  SELECT s.lead_id, s.customer_id, CASE WHEN s.channel = 'live' THEN s.rule_id END AS rule_id, s.price_cents, s.phone, s.email,
         (extract(epoch FROM s.sold_at) * 1000)::float8 AS at, (extract(epoch FROM s.returned_at) * 1000)::float8 AS returned_at
    FROM lead_sales s
   WHERE s.customer_id = ANY($1::int[]) AND (s.sold_at >= $2 OR s.returned_at >= $3)
   ORDER BY s.sold_at, s.id`;

/** Where the replay starts (Paris midnight of its first day), and the week and month that moment belongs to. */
const startSql = `
  SELECT (extract(epoch FROM t0) * 1000)::float8 AS t0,
         (extract(epoch FROM date_trunc('week', t0 AT TIME ZONE 'Europe/Paris') AT TIME ZONE 'Europe/Paris') * 1000)::float8 AS week,
         (extract(epoch FROM date_trunc('month', t0 AT TIME ZONE 'Europe/Paris') AT TIME ZONE 'Europe/Paris') * 1000)::float8 AS month
    FROM (SELECT $1::date::timestamp AT TIME ZONE 'Europe/Paris' AS t0) s`;

/** The raw phone and email the leads query reads, as personOf finds them. */
const personColumns: Pick<LandingColumn, 'key' | 'type'>[] = [
  { key: 'phone', type: 'phone' },
  { key: 'email', type: 'email' },
];

/** The recorded live sales of the replayed leads: what the replay decides again. */
export interface RecordedSale {
  lead_id: number;
  rule_id: number | null;
  customer_id: number;
  price_cents: number;
}

export interface LoadedWorld {
  world: ReplayWorld;
  rules: ReplayRule[];
  recorded: RecordedSale[];
}

/**
 * Everything the replay of `landings` over the Paris days from `firstDay` to `now` reads, in five
 * statements: the rules that target them (and the draft, `extra`), their customers and landings,
 * the leads (only the columns the judge reads, of the form's values those a filter names),
 * and the customers' recorded sales and returns.
 */
export async function loadWorld(db: Queryable, opts: { landings: number[]; firstDay: string; now: Date; extra?: ReplayRule[] }): Promise<LoadedWorld> {
  const rules = (await db.query<ReplayRule>(rulesSql, [[], opts.landings])).rows;
  const all = [...rules, ...(opts.extra ?? [])];
  const customerIds = [...new Set(all.map((r) => r.customer_id))];
  const landingIds = [...new Set([...opts.landings, ...all.flatMap((r) => r.landing_ids)])];
  const [customers, landings, start] = await Promise.all([
    db.query<ReplayCustomer>(
      'SELECT id, name, active, dedupe_days, default_price_cents, monthly_budget_cents::float8 AS monthly_budget_cents FROM customers WHERE id = ANY($1::int[])',
      [customerIds],
    ),
    db.query<{ id: number; columns: LandingColumn[]; max_buyers: number }>('SELECT id, columns, max_buyers FROM landings WHERE id = ANY($1::int[])', [
      landingIds,
    ]),
    db.query<{ t0: number; week: number; month: number }>(startSql, [opts.firstDay]),
  ]);
  const { t0, week, month } = start.rows[0];
  const keys = [...new Set(all.flatMap((r) => r.filters.map((f) => f.column)))].filter((c) => !(leadFilterColumns as readonly string[]).includes(c));
  const { rows: answer } = await db.query<{ leads: LeadRow[] }>(leadsSql(keys.length), [opts.landings, new Date(t0), opts.now, ...(keys.length ? [keys] : [])]);
  const leads: ReplayLead[] = answer[0].leads.map(
    ([id, landing_id, at, departement, postal_code, phone, email, source, utm_source, utm_medium, utm_campaign, data]) => ({
      // The person made comparable here, not by person_phone() in SQL: a PL/pgSQL call per lead is the query's dearest part.
      ...personOf({ phone, email }, personColumns),
      id,
      landing_id,
      at,
      keys: zipKeys(postal_code, departement),
      source,
      utm_source,
      utm_medium,
      utm_campaign,
      data: data ?? {},
      arrival_day: parisClockAt(at).day,
    }),
  );

  const maxDedupe = Math.max(0, ...customers.rows.map((c) => c.dedupe_days));
  const since = Math.min(t0 - maxDedupe * 86_400_000, week, month);
  const { rows: saleRows } = await db.query<PastSale & { lead_id: number; returned_at: number | null }>(salesSql, [
    customerIds,
    new Date(since),
    new Date(month),
  ]);
  const replayed = new Map(leads.map((l, i) => [l.id, i]));
  const past: PastSale[] = [];
  const credits: Credit[] = [];
  const recorded: RecordedSale[] = [];
  for (const s of saleRows) {
    const lead = s.rule_id !== null && s.at >= t0 ? replayed.get(s.lead_id) : undefined;
    if (lead !== undefined) recorded.push({ lead_id: s.lead_id, rule_id: s.rule_id, customer_id: s.customer_id, price_cents: s.price_cents });
    else if (s.at >= since) past.push({ at: s.at, customer_id: s.customer_id, rule_id: s.rule_id, price_cents: s.price_cents, phone: s.phone, email: s.email });
    if (s.returned_at !== null && s.returned_at >= month)
      credits.push({ at: s.returned_at, customer_id: s.customer_id, price_cents: s.price_cents, ...(lead !== undefined ? { lead } : {}) });
  }
  credits.sort((a, b) => a.at - b.at);
  return {
    world: {
      landings: new Map(landings.rows.map((l) => [l.id, { columns: l.columns, max_buyers: l.max_buyers }])),
      customers: new Map(customers.rows.map((c) => [c.id, c])),
      leads,
      past,
      credits,
    },
    rules,
    recorded,
  };
}

/**
 * POST /api/customers/rules/simulate: the draft's landings replayed over the last `days` Paris
 * days twice, with the rules as they are (the baseline) and with the draft in place; the
 * difference answered. Nothing is written.
 */
export async function simulateRule(db: Queryable, input: { rule: RuleDraft; days: number }, now = new Date()): Promise<RuleSimulation> {
  const { current, next } = await draftRules(db, input.rule);
  const landings = [...new Set([...(current?.landing_ids ?? []), ...(next?.landing_ids ?? [])])];
  const days = parisDays(parisClock(now).day, input.days);
  const { world, rules } = await loadWorld(db, { landings, firstDay: days[0], now, extra: next ? [next] : [] });
  const draftId = next?.id ?? current!.id;
  const changed = rules.filter((r) => r.id !== draftId).concat(next ? [next] : []);
  const before = replay(world, rules);
  const after = replay(world, changed, draftId);

  const byLead = (sales: ReplaySale[]) => {
    const map = new Map<number, number[]>();
    for (const s of sales) map.set(s.lead, [...(map.get(s.lead) ?? []), s.rule_id]);
    return map;
  };
  const was = byLead(before.sales);
  const is = byLead(after.sales);
  const mine = after.sales.filter((s) => s.rule_id === draftId);
  const from = new Map<number, number>();
  for (const s of mine)
    for (const rule of was.get(s.lead) ?? []) if (rule !== draftId && !is.get(s.lead)!.includes(rule)) from.set(rule, (from.get(rule) ?? 0) + 1);
  const named = new Map(changed.concat(rules).map((r) => [r.id, r]));
  const taken = new Map<string, number>();
  for (const s of mine) taken.set(s.day, (taken.get(s.day) ?? 0) + 1);
  const revenue = (sales: ReplaySale[]) => sales.reduce((sum, s) => sum + s.price_cents, 0);

  return {
    days: input.days,
    leads_considered: world.leads.length,
    taken: mine.length,
    by_day: days.map((date) => ({ date, taken: taken.get(date) ?? 0, cap_reached_at: after.reached.get(date) ?? null })),
    taken_from: [...from]
      .map(([id, leads]) => {
        const rule = named.get(id)!;
        const customer = world.customers.get(rule.customer_id)!;
        return { rule: { id, name: rule.name }, customer: { id: customer.id, name: customer.name }, leads };
      })
      .sort((a, b) => b.leads - a.leads || a.rule.id - b.rule.id),
    unsold_before: world.leads.length - was.size,
    unsold_after: world.leads.length - is.size,
    revenue_delta_cents: revenue(after.sales) - revenue(before.sales),
  };
}
