import type { LandingColumn } from '../../../src/api/landings/contract';
import { leadFilterColumns, weekdays, type Weekday } from '../../../src/api/rules/contract';
import { setValue } from '../leads/normalize';
import { passesFilter, type FilteredLead, type RuleFilter } from './filters';
import { engineOrder, nextVerdict, salesReason, type Candidate } from './judge';
import { hourClock, inSpan, minuteOf, parisClock, windowSpans, type ParisClock, type WindowSpan } from './paris-time';
import type { ReplayLeads } from './replay-leads';

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

/** A recorded sale the replay keeps as it was (an export, a live sale of a lead not replayed). */
export interface PastSale {
  at: number;
  customer_id: number;
  /** Its rule's counters count it (a live sale); null: an export. */
  rule_id: number | null;
  price_cents: number;
  /** Its person as indexes in the leads' `persons` (-1: none, or no replayed lead's). */
  phone: number;
  email: number;
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
  leads: ReplayLeads;
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

const windowIds = new Map<string, number>();
const hourWindows = new Map<number, Int32Array>();

/** The day, hour, week and month of a moment's UTC hour (hourClock) as numbers, one per distinct day or window: counters compare numbers, not strings. */
function windowsAt(at: number): Int32Array {
  const hour = Math.floor(at / 3_600_000);
  let ids = hourWindows.get(hour);
  if (ids === undefined) {
    const clock = hourClock(at);
    const id = (key: string) => windowIds.get(key) ?? windowIds.set(key, windowIds.size).get(key)!;
    hourWindows.set(hour, (ids = Int32Array.from([clock.day, ...windowSpans.map((span) => clock.windows[span])], id)));
  }
  return ids;
}

/** A customer's month as the budget reads it (sales minus credits), shared by the candidates of its rules. */
interface Month {
  key: string;
  budget: Candidate['budget'];
}

/** What the settings verdict reads of a rule: rules alike in it judge every lead alike. */
const settingsOf = (c: Candidate) => JSON.stringify([c.active, c.customer_active, c.days, c.hour_start, c.hour_end, c.filters]);

/** One filter of a rule's settings as a landing's leads are judged on it. */
interface Check {
  filter: RuleFilter;
  columns: Pick<LandingColumn, 'key' | 'type'>[];
  field: { codes: Int32Array; values: unknown[] } | undefined;
  /** Per value code + 1 (0: the lead has none): 0 not judged yet, 1 passes, 2 fails; null for age_between (it reads the arrival day). */
  verdicts: Uint8Array | null;
}

/** Rule settings (settingsOf) as the replay judges them: the verdict per lead (0 not judged yet, 1 may take it, 2 may not), filled as leads meet them. */
interface Settings {
  open: boolean;
  days: boolean[];
  start: number;
  end: number;
  filters: RuleFilter[];
  /** Per landing (index in the leads' landings), the checks of the filters, made when a lead of it is first judged. */
  checks: Array<Check[] | undefined>;
  verdicts: Uint8Array;
}

/**
 * What every replay of a world reads the same (the baseline and the draft's): each lead's Paris
 * weekday and minute, and the settings verdicts, which read neither sales nor state: the rules
 * alike in settings (most share a filter and the whole week) and both replays judge each lead once.
 * Held by the world, which replay-world.ts keeps between simulations while nothing changes.
 */
interface Shared {
  weekday: Uint8Array;
  minute: Uint16Array;
  settings: Map<string, Settings>;
}
const shared = new WeakMap<ReplayWorld, Shared>();

function sharedOf(world: ReplayWorld): Shared {
  const known = shared.get(world);
  if (known) return known;
  const made = clocked(world, 0, { weekday: new Uint8Array(world.leads.length), minute: new Uint16Array(world.leads.length), settings: new Map() });
  shared.set(world, made);
  return made;
}

/** Each lead's weekday and minute from lead `from` on. */
function clocked(world: ReplayWorld, from: number, made: Shared): Shared {
  const { leads } = world;
  for (let n = from; n < leads.length; n++) {
    const at = leads.at[n];
    const clock = hourClock(at);
    made.weekday[n] = weekdays.indexOf(clock.weekday);
    made.minute[n] = clock.minute + Math.floor((at - Math.floor(at / 3_600_000) * 3_600_000) / 60_000);
  }
  return made;
}

/**
 * What the replays of `from` judged, handed to `to`: the same world (its landings, customers, the
 * leads of `from` in the same ranks) with leads appended (replay-world.ts). The verdicts stand for
 * the leads judged; each filter's checks are made again, as the value codes are `to`'s.
 */
export function carryJudged(from: ReplayWorld, to: ReplayWorld): void {
  const known = shared.get(from);
  if (!known || shared.has(to)) return;
  const length = to.leads.length;
  const grown = <A extends Uint8Array | Uint16Array>(kept: A, make: (n: number) => A) => {
    const array = make(length);
    array.set(kept);
    return array;
  };
  const settings = new Map(
    [...known.settings].map(([key, s]): [string, Settings] => [key, { ...s, checks: [], verdicts: grown(s.verdicts, (n) => new Uint8Array(n)) }]),
  );
  const made = { weekday: grown(known.weekday, (n) => new Uint8Array(n)), minute: grown(known.minute, (n) => new Uint16Array(n)), settings };
  shared.set(to, clocked(to, from.leads.length, made));
}

/** A lead holding only `value` in `column` (null: none), as filters read it, arriving on `day`. */
function filteredLead(column: string, value: unknown, day: string): FilteredLead {
  const lead: FilteredLead = { data: {}, source: null, utm_source: null, utm_medium: null, utm_campaign: null, arrival_day: day };
  if ((leadFilterColumns as readonly string[]).includes(column)) lead[column as (typeof leadFilterColumns)[number]] = value as string | null;
  else if (value !== null) setValue(lead.data, column, value);
  return lead;
}

/**
 * Whether rule settings let a rule take lead `n`, as settingsReason judges it (active, its customer
 * active, the day, the hours, every filter): each filter judged once per landing and distinct value.
 */
function judgeSettings(world: ReplayWorld, s: Settings, { weekday, minute }: Shared, n: number): boolean {
  if (!s.open || !s.days[weekday[n]] || !inSpan(minute[n], s.start, s.end)) return false;
  const { leads } = world;
  const landing = leads.landing[n];
  const checks = (s.checks[landing] ??= s.filters.map((filter) => ({
    filter,
    columns: world.landings.get(leads.landings[landing])!.columns,
    field: leads.fields.get(filter.column),
    verdicts: filter.op === 'age_between' ? null : new Uint8Array((leads.fields.get(filter.column)?.values.length ?? 0) + 1),
  })));
  for (const check of checks) {
    const code = check.field ? check.field.codes[n] : -1;
    const value = code < 0 ? null : check.field!.values[code];
    if (check.verdicts === null) {
      if (!passesFilter(check.filter, filteredLead(check.filter.column, value, hourClock(leads.at[n]).day), check.columns)) return false;
      continue;
    }
    if (check.verdicts[code + 1] === 0)
      check.verdicts[code + 1] = passesFilter(check.filter, filteredLead(check.filter.column, value, ''), check.columns) ? 1 : 2;
    if (check.verdicts[code + 1] === 2) return false;
  }
  return true;
}

/** The leads (indexes) that a credit names: the replay keeps its sale prices to those alone. */
const credited = (world: ReplayWorld) => new Set(world.credits.flatMap((c) => (c.lead === undefined ? [] : [c.lead])));

/**
 * Who bought each person last, per customer: a chain of (customer, epoch ms) per person (index),
 * in flat arrays (a person is bought by a few customers at most).
 */
function buyers(persons: number) {
  let head = new Int32Array(persons).fill(-1);
  const customer: number[] = [];
  const at: number[] = [];
  const next: number[] = [];
  return {
    sold(person: number, customerId: number, moment: number) {
      if (person < 0) return;
      for (let k = head[person]; k >= 0; k = next[k])
        if (customer[k] === customerId) {
          at[k] = moment;
          return;
        }
      customer.push(customerId);
      at.push(moment);
      next.push(head[person]);
      head[person] = at.length - 1;
    },
    /** When the customer last bought the person, -Infinity if never. */
    last(person: number, customerId: number) {
      if (person >= 0) for (let k = head[person]; k >= 0; k = next[k]) if (customer[k] === customerId) return at[k];
      return -Infinity;
    },
    /** Room for the persons of leads appended since (dictionaries only grow). */
    grow(persons: number) {
      if (persons <= head.length) return;
      const grown = new Int32Array(persons).fill(-1);
      grown.set(head);
      head = grown;
    },
  };
}

/**
 * Where a replay stopped, to go on from there (`resumeReplay`): the rules' counters and windows,
 * the customers' months, who bought each person, the next lead, recorded sale and credit.
 */
export interface ReplayProgress {
  candidates: Candidate[];
  months: Map<number, Month>;
  ruleWindows: Int32Array;
  refreshedHour: Float64Array;
  byPhone: ReturnType<typeof buyers>;
  byEmail: ReturnType<typeof buyers>;
  stamp: number;
  next: number;
  p: number;
  k: number;
  sales: ReplaySale[];
  soldPrice: Map<string, number>;
  reached: Map<string, string>;
}

export const replay = (world: ReplayWorld, rules: ReplayRule[], watch?: number): Replayed => run(world, rules, watch).replayed;

/**
 * The replay without a draft, from where `progress` stopped (none: from the start), up to the
 * world's last lead; `progress` goes on with it. Only for the same rules, customers and landings,
 * over the world `progress` was made on with leads appended and recorded sales added after its
 * last lead (replay-world.ts checks it): what was replayed stays as it was.
 */
export const resumeReplay = (world: ReplayWorld, rules: ReplayRule[], progress?: ReplayProgress) => run(world, rules, undefined, progress);

function run(world: ReplayWorld, rules: ReplayRule[], watch?: number, from?: ReplayProgress): { replayed: Replayed; progress: ReplayProgress } {
  const { leads } = world;
  const common = sharedOf(world);
  const months = from?.months ?? new Map<number, Month>();
  if (!from) for (const c of world.customers.values()) months.set(c.id, { key: '', budget: { cents: c.monthly_budget_cents, spent: 0 } });
  const monthOf = (m: Month, clock: ParisClock) => {
    if (m.key !== clock.windows.month) {
      m.key = clock.windows.month;
      m.budget.spent = 0;
    }
    return m.budget;
  };

  // The verdicts are kept with the world for the next replays (the drafts an admin types each add theirs): up to some 64 MB of them.
  if (common.settings.size * leads.length > 2 ** 26) common.settings.clear();
  const candidates: Candidate[] =
    from?.candidates ??
    rules.map((r) => {
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
  const ruleMonth = rules.map((r) => months.get(r.customer_id)!);
  const settings = candidates.map((c) => {
    const key = settingsOf(c);
    let s = common.settings.get(key);
    if (s === undefined)
      common.settings.set(
        key,
        (s = {
          open: c.active && c.customer_active,
          days: weekdays.map((d) => c.days[d]),
          start: minuteOf(c.hour_start),
          end: minuteOf(c.hour_end),
          filters: c.filters,
          checks: [],
          verdicts: new Uint8Array(leads.length),
        }),
      );
    return s;
  });
  const dedupe = rules.map((r) => world.customers.get(r.customer_id)!.dedupe_days * 86_400_000);
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]));
  // The day and windows (windowsAt) each rule's counters belong to: a counter starts again at 0 in a new one.
  const ruleWindows = from?.ruleWindows ?? new Int32Array(rules.length * 4).fill(-1);
  // The UTC hour each rule was last refreshed in: its minutes share the day and every window (see hourClock).
  const refreshedHour = from?.refreshedHour ?? new Float64Array(rules.length).fill(NaN);
  const refresh = (i: number, at: number) => {
    const hour = Math.floor(at / 3_600_000);
    if (refreshedHour[i] === hour) return;
    refreshedHour[i] = hour;
    const c = candidates[i];
    const now = windowsAt(at);
    if (ruleWindows[i * 4] !== now[0]) {
      c.count = 0;
      c.last_delivery_at = null;
    }
    windowSpans.forEach((span, w) => {
      if (ruleWindows[i * 4 + w + 1] !== now[w + 1]) c.counts[span] = 0;
    });
    ruleWindows.set(now, i * 4);
  };

  // The rules each lead could take, as rule_targets finds them: landing → zip key → rule indexes
  // (indexes of the leads' landings and zips; a rule naming none the leads have targets none of
  // them); found once per landing and the lead's keys some rule targets (most rules name
  // departments: the leads of one department find the same rules whatever their postal code).
  const landingIndex = new Map(leads.landings.map((id, i) => [id, i]));
  const zipIndex = new Map(leads.zips.map((zip, i) => [zip, i]));
  const targets = new Map<number, number[]>();
  const targeted = new Uint8Array(leads.zips.length);
  const zipCount = leads.zips.length + 1;
  rules.forEach((r, i) => {
    for (const landing of r.landing_ids) {
      const l = landingIndex.get(landing);
      if (l === undefined) continue;
      for (const key of r.zip.length === 0 ? [''] : r.zip) {
        const z = zipIndex.get(key);
        if (z === undefined) continue;
        targeted[z] = 1;
        const slot = l * zipCount + z;
        targets.set(slot, [...(targets.get(slot) ?? []), i]);
      }
    }
  });
  const found = new Map<number, number[]>();
  const rulesOf = (n: number) => {
    const l = leads.landing[n];
    const pc = leads.postalCode[n] >= 0 && targeted[leads.postalCode[n]] ? leads.postalCode[n] : -1;
    const dep = leads.departement[n] >= 0 && targeted[leads.departement[n]] ? leads.departement[n] : -1;
    const lookup = (l * zipCount + pc + 1) * zipCount + dep + 1;
    let list = found.get(lookup);
    if (list === undefined) {
      const keys = [0, ...(pc >= 0 ? [pc] : []), ...(dep >= 0 ? [dep] : [])];
      found.set(lookup, (list = [...new Set(keys.flatMap((z) => targets.get(l * zipCount + z) ?? []))]));
    }
    return list;
  };

  const byPhone = from?.byPhone ?? buyers(leads.persons.phones.size);
  const byEmail = from?.byEmail ?? buyers(leads.persons.emails.size);
  byPhone.grow(leads.persons.phones.size);
  byEmail.grow(leads.persons.emails.size);
  const soldPerson = (customerId: number, phone: number, email: number, at: number) => {
    byPhone.sold(phone, customerId, at);
    byEmail.sold(email, customerId, at);
  };

  // The last deliveries' order: each sale a millisecond after the one before, as the engine stamps them.
  let stamp = from?.stamp ?? -Infinity;
  const count = (i: number, at: number) => {
    const c = candidates[i];
    c.count++;
    c.counts.hour++;
    c.counts.week++;
    c.counts.month++;
    stamp = Math.max(stamp + 1, at);
    c.last_delivery_at = stamp;
  };

  const sales: ReplaySale[] = from?.sales ?? [];
  const named = credited(world);
  const soldPrice = from?.soldPrice ?? new Map<string, number>();
  const reached = from?.reached ?? new Map<string, string>();
  let p = from?.p ?? 0;
  let k = from?.k ?? 0;
  // The recorded sales and credits up to `at`, each at its hour's clock (its day and windows: all they read).
  const until = (at: number) => {
    for (; p < world.past.length && world.past[p].at <= at; p++) {
      const s = world.past[p];
      const clock = hourClock(s.at);
      const i = s.rule_id === null ? undefined : ruleIndex.get(s.rule_id);
      if (i !== undefined) {
        refresh(i, s.at);
        count(i, s.at);
      }
      monthOf(months.get(s.customer_id)!, clock).spent += s.price_cents;
      soldPerson(s.customer_id, s.phone, s.email, s.at);
    }
    for (; k < world.credits.length && world.credits[k].at <= at; k++) {
      const c = world.credits[k];
      const price = c.lead === undefined ? c.price_cents : soldPrice.get(`${c.lead}:${c.customer_id}`);
      if (price !== undefined) monthOf(months.get(c.customer_id)!, hourClock(c.at)).spent -= price;
    }
  };

  // Reused for every lead: the open rules (indexes), and those that buy it (and their indexes).
  const mine: number[] = [];
  const sold: Candidate[] = [];
  const soldIndexes: number[] = [];
  for (let n = from?.next ?? 0; n < leads.length; n++) {
    const at = leads.at[n];
    until(at);
    // Its hour's clock tells its day and windows; its minute only the settings and the label need.
    const clock = hourClock(at);
    const phone = leads.phone[n];
    const email = leads.email[n];
    mine.length = 0;
    for (const i of rulesOf(n)) {
      const s = settings[i];
      if (s.verdicts[n] === 0) s.verdicts[n] = judgeSettings(world, s, common, n) ? 1 : 2;
      if (s.verdicts[n] === 2) continue;
      const c = candidates[i];
      refresh(i, at);
      monthOf(ruleMonth[i], clock);
      c.sold_to_person = dedupe[i] > 0 && (byPhone.last(phone, c.customer_id) > at - dedupe[i] || byEmail.last(email, c.customer_id) > at - dedupe[i]);
      if (salesReason(c) === null) mine.push(i);
    }
    if (mine.length === 0) continue;
    // The first in the engine's order buys; the others only when it is not exclusive, and then only the
    // rules not exclusive (nextVerdict: 'lost'): the whole order is sorted only for those.
    let first = mine[0];
    for (const i of mine) if (engineOrder(candidates[i], candidates[first]) < 0) first = i;
    sold.length = 0;
    soldIndexes.length = 0;
    sold.push(candidates[first]);
    soldIndexes.push(first);
    if (!candidates[first].exclusive && mine.length > 1) {
      const landing = world.landings.get(leads.landings[leads.landing[n]])!;
      const shared = mine.filter((i) => i !== first && !candidates[i].exclusive).sort((a, b) => engineOrder(candidates[a], candidates[b]));
      for (const i of shared)
        if (nextVerdict(candidates[i], sold, landing.max_buyers) === null) {
          sold.push(candidates[i]);
          soldIndexes.push(i);
        }
    }
    for (const [j, c] of sold.entries()) {
      count(soldIndexes[j], at);
      c.budget.spent += c.price_cents;
      soldPerson(c.customer_id, phone, email, at);
      if (named.has(n)) soldPrice.set(`${n}:${c.customer_id}`, c.price_cents);
      sales.push({ lead: n, rule_id: c.id, customer_id: c.customer_id, price_cents: c.price_cents, day: clock.day });
      if (c.id === watch && !reached.has(clock.day) && isReached(c)) reached.set(clock.day, parisClock(new Date(at)).label.slice(11));
    }
  }
  const progress = { candidates, months, ruleWindows, refreshedHour, byPhone, byEmail, stamp, next: leads.length, p, k, sales, soldPrice, reached };
  return { replayed: { sales, reached }, progress };
}

/** The rule may sell no more this day: its day's, week's or month's cap reached, or another sale would pass its customer's budget. */
const isReached = (c: Candidate) =>
  c.count >= c.leads_number ||
  (c.caps.week !== null && c.counts.week >= c.caps.week) ||
  (c.caps.month !== null && c.counts.month >= c.caps.month) ||
  (c.budget.cents !== null && c.budget.spent + c.price_cents > c.budget.cents);
