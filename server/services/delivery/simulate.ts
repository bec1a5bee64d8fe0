import { weekdays, type RuleDraft, type RuleSimulation } from '../../../src/api/rules/contract';
import { maxSerialId } from '../../../src/api/ids';
import type { Db, Queryable } from '../../db/connection';
import { notFound, validationFailed } from '../../errors';
import { referenceErrors, ruleNotFound } from '../lives/rules';
import { parisClock } from './paris-time';
import { replay, type ReplayRule, type ReplaySale } from './replay';
import { rulesSql, simulatedWorld } from './replay-world';

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
 * POST /api/customers/rules/simulate: the draft's landings replayed over the last `days` Paris
 * days with the draft in place, against the replay with the rules as they are (the baseline,
 * kept with the world while neither changes: replay-world.ts); the difference answered. Nothing
 * is written.
 */
export async function simulateRule(db: Db, input: { rule: RuleDraft; days: number }, now = new Date()): Promise<RuleSimulation> {
  const { current, next } = await draftRules(db, input.rule);
  const landings = [...new Set([...(current?.landing_ids ?? []), ...(next?.landing_ids ?? [])])];
  const days = parisDays(parisClock(now).day, input.days);
  const { world, rules, before: baseline } = await simulatedWorld(db, { landings, firstDay: days[0], extra: next ? [next] : [] });
  const draftId = next?.id ?? current!.id;
  const changed = rules.filter((r) => r.id !== draftId).concat(next ? [next] : []);
  const before = baseline();
  const after = replay(world, changed, draftId);

  /** Each lead's sales, from first[n] to end[n] (first -1: unsold): a replay's sales come in lead order. */
  const byLead = ({ sales }: { sales: ReplaySale[] }) => {
    const first = new Int32Array(world.leads.length).fill(-1);
    const end = new Int32Array(world.leads.length);
    let sold = 0;
    sales.forEach((s, k) => {
      if (first[s.lead] < 0) [first[s.lead], sold] = [k, sold + 1];
      end[s.lead] = k + 1;
    });
    const rules = (n: number) => (first[n] < 0 ? [] : sales.slice(first[n], end[n]).map((s) => s.rule_id));
    return { sold, rules };
  };
  const was = byLead(before);
  const is = byLead(after);
  const mine = after.sales.filter((s) => s.rule_id === draftId);
  const from = new Map<number, number>();
  for (const s of mine) {
    const still = is.rules(s.lead);
    for (const rule of was.rules(s.lead)) if (rule !== draftId && !still.includes(rule)) from.set(rule, (from.get(rule) ?? 0) + 1);
  }
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
    unsold_before: world.leads.length - was.sold,
    unsold_after: world.leads.length - is.sold,
    revenue_delta_cents: revenue(after.sales) - revenue(before.sales),
  };
}
