import type { LandingColumn } from '../../../src/api/landings/contract';
import type { Weekday } from '../../../src/api/rules/contract';
import type { FilteredLead, RuleFilter } from './filters';
import { engineOrder, nextVerdict, salesReason, settingsReason, type Candidate } from './judge';
import { parisClock, type ParisClock, type WindowSpan } from './paris-time';

/**
 * The replay of past leads through the live engine's judge (issue 27, 'What-if simulation'):
 * each lead routed alone at its arrival, in arrival order, with the rules given, the sales it
 * makes counted in the days, windows, budgets and persons the next leads see, as the engine
 * counts them. The sales the replay does not decide (exports, live sales of other leads) and the
 * returns are events at their recorded moments. Pure: the world is loaded by simulate.ts.
 */
export interface ReplayRule {
  id: number;
  name: string;
  customer_id: number;
  landing_ids: number[];
  zip: string[];
  active: boolean;
  hour_start: string;
  hour_end: string;
  leads_number: number;
  days: Record<Weekday, boolean>;
  caps: Record<WindowSpan, number | null>;
  priority: number;
  weight: number | null;
  filters: RuleFilter[];
  exclusive: boolean;
  /** null: its customer's default price. */
  price_cents: number | null;
}

export interface ReplayCustomer {
  id: number;
  name: string;
  active: boolean;
  dedupe_days: number;
  default_price_cents: number;
  monthly_budget_cents: number | null;
}

export interface ReplayLead extends FilteredLead {
  id: number;
  landing_id: number;
  /** Arrival, epoch ms. */
  at: number;
  /** Its keys in the rules' targets: '' (everywhere), its postal code, its department. */
  keys: string[];
  phone: string | null;
  email: string | null;
}

/** A recorded sale the replay keeps as it was (an export, a live sale of a lead not replayed). */
export interface PastSale {
  at: number;
  customer_id: number;
  /** Its rule's counters count it (a live sale); null: an export. */
  rule_id: number | null;
  price_cents: number;
  phone: string | null;
  email: string | null;
}

/** A return credited on its customer's month at `at`; with `lead`, only if the replay sold that lead (index) to that customer. */
export interface Credit {
  at: number;
  customer_id: number;
  price_cents: number;
  lead?: number;
}

export interface ReplayWorld {
  landings: Map<number, { columns: Pick<LandingColumn, 'key' | 'type'>[]; max_buyers: number }>;
  customers: Map<number, ReplayCustomer>;
  /** In arrival order. */
  leads: ReplayLead[];
  /** Both in time order. */
  past: PastSale[];
  credits: Credit[];
}

export interface ReplaySale {
  /** Index of the lead in world.leads. */
  lead: number;
  rule_id: number;
  customer_id: number;
  price_cents: number;
  /** Paris day of the sale. */
  day: string;
}

export interface Replayed {
  sales: ReplaySale[];
  /** For the watched rule: per Paris day, the 'HH:mm' of the sale with which its day, week or month cap or its customer's budget was reached. */
  reached: Map<string, string>;
}

const clocks = new Map<number, ParisClock>();

/**
 * The Paris clock of a moment (epoch ms), as parisClock tells it, from its hour's computed once:
 * Intl is the replay's dearest call otherwise. Paris is a whole number of hours from UTC and
 * changes offset on a UTC hour, so the minutes of a UTC hour share its day, weekday and windows.
 */
export function parisClockAt(at: number): ParisClock {
  const hour = Math.floor(at / 3_600_000);
  const clock = hourClock(at);
  const minute = Math.floor((at - hour * 3_600_000) / 60_000);
  return minute === 0 ? clock : { ...clock, minute: clock.minute + minute, label: `${clock.label.slice(0, 14)}${String(minute).padStart(2, '0')}` };
}

/** The Paris clock of a moment's UTC hour (its first minute): the day, weekday and windows of every minute of that hour. */
function hourClock(at: number): ParisClock {
  const hour = Math.floor(at / 3_600_000);
  return clocks.get(hour) ?? clocks.set(hour, parisClock(new Date(hour * 3_600_000))).get(hour)!;
}

/** The Paris day of a moment (epoch ms), as parisClockAt tells it. */
export const parisDayAt = (at: number): string => hourClock(at).day;

/** A customer's month as the budget reads it (sales minus credits), shared by the candidates of its rules. */
interface Month {
  key: string;
  budget: Candidate['budget'];
}

/** What settingsReason reads of a rule: rules alike in it judge every lead alike. */
const settingsOf = (c: Candidate) => JSON.stringify([c.active, c.customer_active, c.days, c.hour_start, c.hour_end, c.filters]);

/**
 * Per world and rule settings (settingsOf), whether they let a rule take each lead (0: not judged
 * yet, 1: yes, 2: no): they read neither sales nor state, so the rules alike (most rules share a
 * filter and the whole week) and the replays of one world (before and after a draft) judge each
 * lead once. Held by the world: nothing outlives the request that loaded it.
 */
const settled = new WeakMap<ReplayWorld, Map<string, Uint8Array>>();

/** The leads (indexes) that a credit names: the replay keeps its sale prices to those alone. */
const credited = (world: ReplayWorld) => new Set(world.credits.flatMap((c) => (c.lead === undefined ? [] : [c.lead])));

export function replay(world: ReplayWorld, rules: ReplayRule[], watch?: number): Replayed {
  const verdicts = settled.get(world) ?? settled.set(world, new Map()).get(world)!;
  const months = new Map<number, Month>();
  for (const c of world.customers.values()) months.set(c.id, { key: '', budget: { cents: c.monthly_budget_cents, spent: 0 } });
  const monthOf = (customerId: number, clock: ParisClock) => {
    const m = months.get(customerId)!;
    if (m.key !== clock.windows.month) {
      m.key = clock.windows.month;
      m.budget.spent = 0;
    }
    return m.budget;
  };

  const candidates: Candidate[] = rules.map((r) => {
    const customer = world.customers.get(r.customer_id)!;
    return {
      id: r.id,
      name: r.name,
      customer_id: r.customer_id,
      customer_name: customer.name,
      customer_active: customer.active,
      active: r.active,
      hour_start: r.hour_start,
      hour_end: r.hour_end,
      leads_number: r.leads_number,
      zip: r.zip,
      days: r.days,
      count: 0,
      last_delivery_at: null,
      caps: r.caps,
      counts: { hour: 0, week: 0, month: 0 },
      priority: r.priority,
      weight: r.weight,
      filters: r.filters,
      exclusive: r.exclusive,
      sold_to_person: false,
      price_cents: r.price_cents ?? customer.default_price_cents,
      budget: months.get(r.customer_id)!.budget,
    };
  });
  const settings = candidates.map((c) => {
    const key = settingsOf(c);
    return verdicts.get(key) ?? verdicts.set(key, new Uint8Array(world.leads.length)).get(key)!;
  });
  const dedupe = rules.map((r) => world.customers.get(r.customer_id)!.dedupe_days * 86_400_000);
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]));
  // The windows each rule's counters belong to: a counter starts again at 0 in a new window.
  const dayKey: string[] = rules.map(() => '');
  const windowKey: Record<WindowSpan, string[]> = { hour: rules.map(() => ''), week: rules.map(() => ''), month: rules.map(() => '') };
  // The UTC hour each rule was last refreshed in: its minutes share the day and every window (see parisClockAt).
  const refreshedHour = new Float64Array(rules.length).fill(NaN);
  const refresh = (i: number, clock: ParisClock, at: number) => {
    const hour = Math.floor(at / 3_600_000);
    if (refreshedHour[i] === hour) return;
    refreshedHour[i] = hour;
    const c = candidates[i];
    if (dayKey[i] !== clock.day) {
      dayKey[i] = clock.day;
      c.count = 0;
      c.last_delivery_at = null;
    }
    for (const span of ['hour', 'week', 'month'] as const)
      if (windowKey[span][i] !== clock.windows[span]) {
        windowKey[span][i] = clock.windows[span];
        c.counts[span] = 0;
      }
  };

  // The rules each lead could take, as rule_targets finds them: landing → zip key → rule indexes;
  // found once per landing and the lead's keys that some rule targets (most rules name departments: leads of
  // one department find the same rules whatever their postal code), each rule once.
  const targets = new Map<number, Map<string, number[]>>();
  rules.forEach((r, i) => {
    for (const landing of r.landing_ids) {
      const byKey = targets.get(landing) ?? targets.set(landing, new Map()).get(landing)!;
      for (const key of r.zip.length === 0 ? [''] : r.zip) byKey.set(key, [...(byKey.get(key) ?? []), i]);
    }
  });
  const targeted = new Set(rules.flatMap((r) => (r.zip.length === 0 ? [''] : r.zip)));
  const found = new Map<string, number[]>();
  const rulesOf = (lead: ReplayLead) => {
    const keys = lead.keys.filter((key) => targeted.has(key));
    const lookup = `${lead.landing_id}\t${keys.join('\t')}`;
    let list = found.get(lookup);
    if (list === undefined) {
      const byKey = targets.get(lead.landing_id);
      found.set(lookup, (list = [...new Set(keys.flatMap((key) => byKey?.get(key) ?? []))]));
    }
    return list;
  };

  // Who bought each person last: phone / email → customer → epoch ms (a lead's buyers found once, not per rule).
  const byPhone = new Map<string, Map<number, number>>();
  const byEmail = new Map<string, Map<number, number>>();
  const buyers = (index: Map<string, Map<number, number>>, key: string) => index.get(key) ?? index.set(key, new Map()).get(key)!;
  const soldPerson = (customerId: number, phone: string | null, email: string | null, at: number) => {
    if (phone) buyers(byPhone, phone).set(customerId, at);
    if (email) buyers(byEmail, email).set(customerId, at);
  };
  const boughtSince = (customerId: number, phone: Map<number, number> | undefined, email: Map<number, number> | undefined, since: number) =>
    (phone?.get(customerId) ?? -Infinity) > since || (email?.get(customerId) ?? -Infinity) > since;

  // The last deliveries' order: each sale a millisecond after the one before, as the engine stamps them.
  let stamp = -Infinity;
  const count = (i: number, at: number) => {
    const c = candidates[i];
    c.count++;
    c.counts.hour++;
    c.counts.week++;
    c.counts.month++;
    stamp = Math.max(stamp + 1, at);
    c.last_delivery_at = stamp;
  };

  const sales: ReplaySale[] = [];
  const named = credited(world);
  const soldPrice = new Map<string, number>();
  const reached = new Map<string, string>();
  let p = 0;
  let k = 0;
  const until = (at: number) => {
    for (; p < world.past.length && world.past[p].at <= at; p++) {
      const s = world.past[p];
      const clock = parisClockAt(s.at);
      const i = s.rule_id === null ? undefined : ruleIndex.get(s.rule_id);
      if (i !== undefined) {
        refresh(i, clock, s.at);
        count(i, s.at);
      }
      monthOf(s.customer_id, clock).spent += s.price_cents;
      soldPerson(s.customer_id, s.phone, s.email, s.at);
    }
    for (; k < world.credits.length && world.credits[k].at <= at; k++) {
      const c = world.credits[k];
      const price = c.lead === undefined ? c.price_cents : soldPrice.get(`${c.lead}:${c.customer_id}`);
      if (price !== undefined) monthOf(c.customer_id, parisClockAt(c.at)).spent -= price;
    }
  };

  world.leads.forEach((lead, n) => {
    until(lead.at);
    // Its hour's clock tells its day and windows; its own (the minute) only the settings and the label need.
    const clock = hourClock(lead.at);
    let minuteClock: ParisClock | undefined;
    const landing = world.landings.get(lead.landing_id)!;
    const mine: Candidate[] = [];
    const indexes: number[] = [];
    const phoneBuyers = lead.phone ? byPhone.get(lead.phone) : undefined;
    const emailBuyers = lead.email ? byEmail.get(lead.email) : undefined;
    for (const i of rulesOf(lead)) {
      const c = candidates[i];
      if (settings[i][n] === 0)
        settings[i][n] = settingsReason(c, (minuteClock ??= parisClockAt(lead.at)), { lead, columns: landing.columns }) === null ? 1 : 2;
      if (settings[i][n] === 2) continue;
      refresh(i, clock, lead.at);
      monthOf(c.customer_id, clock);
      c.sold_to_person = dedupe[i] > 0 && boughtSince(c.customer_id, phoneBuyers, emailBuyers, lead.at - dedupe[i]);
      if (salesReason(c) !== null) continue;
      mine.push(c);
      indexes.push(i);
    }
    if (mine.length === 0) return;
    const sold: Candidate[] = [];
    for (const c of mine.length === 1 ? mine : mine.slice().sort(engineOrder)) if (nextVerdict(c, sold, landing.max_buyers) === null) sold.push(c);
    for (const c of sold) {
      count(indexes[mine.indexOf(c)], lead.at);
      c.budget.spent += c.price_cents;
      soldPerson(c.customer_id, lead.phone, lead.email, lead.at);
      if (named.has(n)) soldPrice.set(`${n}:${c.customer_id}`, c.price_cents);
      sales.push({ lead: n, rule_id: c.id, customer_id: c.customer_id, price_cents: c.price_cents, day: clock.day });
      if (c.id === watch && !reached.has(clock.day) && isReached(c)) reached.set(clock.day, parisClockAt(lead.at).label.slice(11));
    }
  });
  return { sales, reached };
}

/** The rule may sell no more this day: its day's, week's or month's cap reached, or another sale would pass its customer's budget. */
const isReached = (c: Candidate) =>
  c.count >= c.leads_number ||
  (c.caps.week !== null && c.counts.week >= c.caps.week) ||
  (c.caps.month !== null && c.counts.month >= c.caps.month) ||
  (c.budget.cents !== null && c.budget.spent + c.price_cents > c.budget.cents);
