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
  parisDayAt,
  replay,
  type Credit,
  type PastSale,
  type ReplayCustomer,
  type ReplayLead,
  type ReplayRule,
  type ReplaySale,
  type ReplayWorld,
} from './replay';

/** The rules as the replay reads them ($1: their ids, or null for every rule of the landings $2), as one JSON array: one parse, not a row object decoded per rule. */
const rulesSql = `
  SELECT coalesce(json_agg(json_build_object(
           'id', r.id, 'name', r.name, 'customer_id', r.customer_id, 'landing_ids', r.landing_ids, 'zip', r.zip, 'active', r.active,
           'hour_start', r.hour_start, 'hour_end', r.hour_end, 'leads_number', r.leads_number,
           'days', json_build_object(${weekdays.map((d) => `'${d}', r.${d}`).join(', ')}),
           'caps', json_build_object('hour', r.cap_hour, 'week', r.cap_week, 'month', r.cap_month),
           'priority', r.priority, 'weight', r.weight, 'filters', r.filters, 'exclusive', r.exclusive, 'price_cents', r.price_cents
         ) ORDER BY r.id), '[]') AS rules
    FROM rules r
   WHERE r.deleted_at IS NULL AND (r.id = ANY($1::int[]) OR r.landing_ids && $2::int[])`;

const readRules = async (db: Queryable, ids: number[], landings: number[]) =>
  (await db.query<{ rules: ReplayRule[] }>(rulesSql, [ids, landings])).rows[0].rules;

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
  const [current] = await readRules(db, [draft.id], []);
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
 * The leads of the landings that arrived since `$2` and were offered to the engine, or would have
 * been (new and never routed), in arrival order, as columns: one JSON array per column (a single
 * JSON.parse of strings and numbers, no object per lead). Only the columns the rules concerned
 * read (`read`: name → SQL, null when no rule reads it: postal codes when a rule names one, the
 * person when a customer dedupes, the form values a filter names); the form keys as parameters,
 * one per landing group (`keyOf`): a key read from a joined row costs the statement five times as much.
 */
const leadsSql = (read: Record<string, string | null>) => {
  const columns = Object.entries(read).filter((c): c is [string, string] => c[1] !== null);
  return `
  SELECT json_build_array(${columns.map(([name]) => `json_agg(${name} ORDER BY at, id)`).join(', ')}) AS leads
    FROM (SELECT ${columns.map(([name, sql]) => `${sql} AS ${name}`).join(', ')}
            FROM leads l LEFT JOIN lead_routings lr ON lr.lead_id = l.id
           WHERE l.landing_id = ANY($1::int[]) AND l.created_at >= $2 AND l.created_at <= $3
             AND (lr.outcome IN ('delivered', 'unmatched') OR (lr.lead_id IS NULL AND l.entry_status = 'new'))) l`;
};

/**
 * The SQL of a lead's value of its landing's first column of `type` (as personOf and
 * landing_column_key find it): the key a parameter (`params` gets it), one CASE branch per key
 * when the landings differ.
 */
function keyOf(landings: Array<{ id: number; columns: LandingColumn[] }>, type: LandingColumn['type'], params: unknown[]): string {
  const groups = new Map<string | undefined, number[]>();
  for (const l of landings) {
    const key = l.columns.find((c) => c.type === type)?.key;
    groups.set(key, [...(groups.get(key) ?? []), l.id]);
  }
  const value = (key: string | undefined) => (key === undefined ? 'NULL::text' : `l.data ->> $${params.push(key)}::text`);
  if (groups.size === 1) return value([...groups.keys()][0]);
  return `CASE ${[...groups].map(([key, ids]) => `WHEN l.landing_id = ANY($${params.push(ids)}::int[]) THEN ${value(key)}`).join(' ')} END`;
}

/**
 * The recorded sales to the customers that count before and during the replay: sold since `$2`
 * (the dedupe windows, the week and month the replay starts in), or returned since `$3` (the
 * month's credits), in time order, as columns (see leadsSql).
 */
const salesSql = `
  SELECT json_build_array(${['lead_id', 'customer_id', 'rule_id', 'price_cents', 'phone', 'email', 'at', 'returned_at'].map((c) => `json_agg(${c} ORDER BY sold_at, id)`).join(', ')}) AS sales
    FROM (SELECT s.id, s.sold_at, s.lead_id, s.customer_id, CASE WHEN s.channel = 'live' THEN s.rule_id END AS rule_id, s.price_cents, s.phone, s.email,
                 (extract(epoch FROM s.sold_at) * 1000)::float8 AS at, (extract(epoch FROM s.returned_at) * 1000)::float8 AS returned_at
            FROM lead_sales s
           WHERE s.customer_id = ANY($1::int[]) AND (s.sold_at >= $2 OR s.returned_at >= $3)) s`;

/** The sale columns of salesSql. */
type SaleColumns = [
  lead_id: number[],
  customer_id: number[],
  rule_id: Array<number | null>,
  price_cents: number[],
  phone: Array<string | null>,
  email: Array<string | null>,
  at: number[],
  returned_at: Array<number | null>,
];

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
  const rules = await readRules(db, [], opts.landings);
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
  const named = new Set(all.flatMap((r) => r.filters.map((f) => f.column)));
  const keys = [...named].filter((c) => !(leadFilterColumns as readonly string[]).includes(c));
  const replayed = landings.rows.filter((l) => opts.landings.includes(l.id));
  const person = customers.rows.some((c) => c.dedupe_days > 0);
  const params: unknown[] = [opts.landings, new Date(t0), opts.now];
  const read: Record<string, string | null> = {
    id: 'l.id',
    landing_id: 'l.landing_id',
    at: '(extract(epoch FROM l.created_at) * 1000)::float8',
    departement: 'l.departement',
    postal_code: all.some((r) => r.zip.some((z) => /^\d{5}$/.test(z))) ? keyOf(replayed, 'postal_code', params) : null,
    phone: person ? keyOf(replayed, 'phone', params) : null,
    email: person ? keyOf(replayed, 'email', params) : null,
    ...Object.fromEntries(leadFilterColumns.map((c) => [c, named.has(c) ? `l.${c}` : null])),
    ...Object.fromEntries(keys.map((key, i) => [`f${i}`, `l.data -> $${params.push(key)}::text`])),
  };
  const { rows: answer } = await db.query<{ leads: unknown[][] }>(leadsSql(read), params);
  const answered = Object.keys(read).filter((name) => read[name] !== null);
  /** A column as answered; one no rule reads: nothing (every lead's value undefined, read as null). */
  const column = <T>(name: string): T[] => (read[name] === null ? [] : ((answer[0].leads[answered.indexOf(name)] ?? []) as T[]));
  const [ids, leadLandings, ats] = ['id', 'landing_id', 'at'].map((name) => column<number>(name));
  const [departements, postalCodes, phones, emails, sources, utmSources, utmMediums, utmCampaigns] = [
    'departement',
    'postal_code',
    'phone',
    'email',
    'source',
    'utm_source',
    'utm_medium',
    'utm_campaign',
  ].map((name) => column<string | null>(name));
  const fields = keys.map((_, i) => column<unknown>(`f${i}`));
  const leads: ReplayLead[] = ids.map((id, n) => {
    const at = ats[n];
    const data: Record<string, unknown> = {};
    keys.forEach((key, f) => {
      if (fields[f][n] !== null) data[key] = fields[f][n];
    });
    // The person made comparable here, not by person_phone() in SQL: a PL/pgSQL call per lead is the query's dearest part.
    const person = personOf({ phone: phones[n] ?? null, email: emails[n] ?? null }, personColumns);
    // Every field named (no spread): one object shape for all leads, built twice as fast.
    return {
      phone: person.phone,
      email: person.email,
      id,
      landing_id: leadLandings[n],
      at,
      keys: zipKeys(postalCodes[n] ?? null, departements[n] ?? ''),
      source: sources[n] ?? null,
      utm_source: utmSources[n] ?? null,
      utm_medium: utmMediums[n] ?? null,
      utm_campaign: utmCampaigns[n] ?? null,
      data,
      arrival_day: parisDayAt(at),
    };
  });

  const maxDedupe = Math.max(0, ...customers.rows.map((c) => c.dedupe_days));
  const since = Math.min(t0 - maxDedupe * 86_400_000, week, month);
  const { rows: saleAnswer } = await db.query<{ sales: SaleColumns }>(salesSql, [customerIds, new Date(since), new Date(month)]);
  const [leadIds, customerOf, ruleOf, prices, salePhones, saleEmails, soldAt, returnedAt] = saleAnswer[0].sales.map((column) => column ?? []) as SaleColumns;
  const replayedLeads = new Map(leads.map((l, i) => [l.id, i]));
  const past: PastSale[] = [];
  const credits: Credit[] = [];
  const recorded: RecordedSale[] = [];
  leadIds.forEach((leadId, n) => {
    const [at, customer_id, rule_id, price_cents, returned] = [soldAt[n], customerOf[n], ruleOf[n], prices[n], returnedAt[n]];
    const lead = rule_id !== null && at >= t0 ? replayedLeads.get(leadId) : undefined;
    if (lead !== undefined) recorded.push({ lead_id: leadId, rule_id, customer_id, price_cents });
    else if (at >= since) past.push({ at, customer_id, rule_id, price_cents, phone: salePhones[n], email: saleEmails[n] });
    if (returned !== null && returned >= month) credits.push({ at: returned, customer_id, price_cents, ...(lead !== undefined ? { lead } : {}) });
  });
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
