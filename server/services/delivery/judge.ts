import type { LandingColumn } from '../../../src/api/landings/contract';
import type { PassReason, RoutingCandidate, Weekday } from '../../../src/api/rules/contract';
import { failingFilter, type FilteredLead, type RuleFilter } from './filters';
import { inWindow, type ParisClock, type WindowSpan } from './paris-time';

/** A rule that could take a lead by landing and postal code, as the engine reads it. */
export interface Candidate {
  id: number;
  name: string;
  customer_id: number;
  customer_name: string;
  customer_active: boolean;
  active: boolean;
  hour_start: string;
  hour_end: string;
  leads_number: number;
  zip: string[];
  days: Record<Weekday, boolean>;
  /** Leads delivered today (Paris day). */
  count: number;
  /** Last delivery today (a number: epoch ms, as the replay keeps it), null when none yet. */
  last_delivery_at: Date | string | number | null;
  /** Caps of the other windows (null: none) and the rule's sales in the current ones. */
  caps: Record<WindowSpan, number | null>;
  counts: Record<WindowSpan, number>;
  /** 1 is served first. */
  priority: number;
  /** Share within a priority; null counts as the daily cap (least filled first). */
  weight: number | null;
  filters: RuleFilter[];
  exclusive: boolean;
  /** The customer bought the lead's person within its dedupe window. */
  sold_to_person: boolean;
  /** What this rule sells a lead at: its own price, else its customer's default (cents). */
  price_cents: number;
  /** Its customer's monthly budget (null: none) and its month's sales minus credits so far (Paris calendar, cents). */
  budget: { cents: number | null; spent: number };
}

/** The rule fields of issues 25 and 26 as their defaults leave a rule: today's behaviour (no other window, priority 5, least filled, no filter, exclusive, free, no budget). */
export const todaysRule: Pick<Candidate, 'caps' | 'counts' | 'priority' | 'weight' | 'filters' | 'exclusive' | 'sold_to_person' | 'price_cents' | 'budget'> = {
  caps: { hour: null, week: null, month: null },
  counts: { hour: 0, week: 0, month: 0 },
  priority: 5,
  weight: null,
  filters: [],
  exclusive: true,
  sold_to_person: false,
  price_cents: 0,
  budget: { cents: null, spent: 0 },
};

export interface Judged {
  candidate: Candidate;
  /** null: the rule may take the lead now. */
  reason: PassReason | null;
  /** With reason 'filter': the filter the lead failed. */
  filter?: RuleFilter;
}

/** The lead as rules judge it: its filterable values and its landing's columns. */
export interface JudgedLead {
  lead: FilteredLead;
  columns: Pick<LandingColumn, 'key' | 'type'>[];
}

/** Why a rule cannot take a lead at `clock` whatever its sales so far (its settings, the lead's day, hour and fields), or null. */
export function settingsReason(c: Candidate, clock: ParisClock, lead: JudgedLead): Pick<Judged, 'reason' | 'filter'> | null {
  if (!c.active) return { reason: 'paused' };
  if (!c.customer_active) return { reason: 'customer_paused' };
  if (!c.days[clock.weekday]) return { reason: 'day' };
  if (!inWindow(clock.minute, c.hour_start, c.hour_end)) return { reason: 'hours' };
  const filter = failingFilter(c.filters, lead.lead, lead.columns);
  if (filter) return { reason: 'filter', filter };
  return null;
}

/**
 * Why a rule that its settings let take a lead cannot for its sales so far (person, caps, budget),
 * or null. A full window is named as the engine claims them: hour, week, month, then the day (its
 * report). Written out, not looped over: the simulation asks it of every rule a lead could take.
 */
export function salesReason(c: Candidate): PassReason | null {
  if (c.sold_to_person) return 'already_sold_to_customer';
  if (c.caps.hour !== null && c.counts.hour >= c.caps.hour) return 'cap_hour';
  if (c.caps.week !== null && c.counts.week >= c.caps.week) return 'cap_week';
  if (c.caps.month !== null && c.counts.month >= c.caps.month) return 'cap_month';
  if (c.count >= c.leads_number) return 'cap';
  if (c.budget.cents !== null && c.budget.spent + c.price_cents > c.budget.cents) return 'budget';
  return null;
}

/** Why a rule cannot take a lead at `clock`, or null when it can. */
export function passReason(c: Candidate, clock: ParisClock, lead: JudgedLead): Pick<Judged, 'reason' | 'filter'> {
  return settingsReason(c, clock, lead) ?? { reason: salesReason(c) };
}

const time = (v: Candidate['last_delivery_at']) => (v === null ? -Infinity : typeof v === 'number' ? v : new Date(v).getTime());

/** count / share compared exactly (cross products of integers). */
const fill = (a: Candidate, b: Candidate) => a.count * (b.weight ?? b.leads_number) - b.count * (a.weight ?? a.leads_number);

/** The engine's order among the rules that may take a lead (see judge). */
export const engineOrder = (a: Candidate, b: Candidate) =>
  a.priority - b.priority || fill(a, b) || time(a.last_delivery_at) - time(b.last_delivery_at) || a.id - b.id;

/**
 * The candidates in the order the engine tries them: the rules that may take the lead first, by
 * priority (1 first), then the smallest count_today / weight (a null weight being the daily cap:
 * the least filled), then the one whose last delivery is oldest (none today first), then the
 * oldest rule; then the others by id, each with its reason.
 */
export function judge(candidates: Candidate[], clock: ParisClock, lead: JudgedLead): Judged[] {
  const judged: Judged[] = candidates.map((candidate) => ({ candidate, ...passReason(candidate, clock, lead) }));
  const open = judged.filter((j) => j.reason === null);
  open.sort((a, b) => engineOrder(a.candidate, b.candidate));
  const closed = judged.filter((j) => j.reason !== null).sort((a, b) => a.candidate.id - b.candidate.id);
  return [...open, ...closed];
}

/**
 * Whether the next open rule, in the engine's order, may buy the lead after `sold` bought it:
 * the first open rule always may; after an exclusive one none may; a shared lead goes only to
 * non-exclusive rules, one per customer, up to the landing's `maxBuyers`.
 */
export function nextVerdict(c: Candidate, sold: Candidate[], maxBuyers: number): PassReason | null {
  if (sold.length === 0) return null;
  if (sold[0].exclusive) return c.exclusive ? 'lost' : 'exclusive_elsewhere';
  if (c.exclusive) return 'lost';
  if (sold.length >= maxBuyers) return 'max_buyers';
  if (sold.some((s) => s.customer_id === c.customer_id)) return 'same_customer';
  return null;
}

/** The candidates as a lead's routing explanation keeps them. */
export const considered = (judged: Judged[]): Omit<RoutingCandidate, 'deleted'>[] =>
  judged.map(({ candidate: c, reason, filter }) => ({
    rule_id: c.id,
    rule_name: c.name,
    customer_id: c.customer_id,
    customer_name: c.customer_name,
    count: c.count,
    leads_number: c.leads_number,
    reason,
    priority: c.priority,
    weight: c.weight,
    exclusive: c.exclusive,
    windows: {
      hour: { count: c.counts.hour, cap: c.caps.hour },
      week: { count: c.counts.week, cap: c.caps.week },
      month: { count: c.counts.month, cap: c.caps.month },
    },
    ...(filter ? { filter } : {}),
  }));
