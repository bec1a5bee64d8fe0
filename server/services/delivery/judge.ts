import type { PassReason, RoutingCandidate, Weekday } from '../../../src/api/rules/contract';
import { inWindow, type ParisClock } from './paris-time';

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
  /** Last delivery today, null when none yet. */
  last_delivery_at: Date | string | null;
}

export interface Judged {
  candidate: Candidate;
  /** null: the rule may take the lead now. */
  reason: PassReason | null;
}

/** Why a rule cannot take a lead at `clock`, or null when it can. */
export function passReason(c: Candidate, clock: ParisClock): PassReason | null {
  if (!c.active) return 'paused';
  if (!c.customer_active) return 'customer_paused';
  if (!c.days[clock.weekday]) return 'day';
  if (!inWindow(clock.minute, c.hour_start, c.hour_end)) return 'hours';
  if (c.count >= c.leads_number) return 'cap';
  return null;
}

const time = (v: Date | string | null) => (v === null ? -Infinity : new Date(v).getTime());

/**
 * The candidates in the order the engine tries them: the rules that may take the lead first, least
 * filled (count / cap) first, then the one whose last delivery is oldest (none today first), then
 * the oldest rule; then the others by id, each with its reason.
 */
export function judge(candidates: Candidate[], clock: ParisClock): Judged[] {
  const judged = candidates.map((candidate) => ({ candidate, reason: passReason(candidate, clock) }));
  const open = judged.filter((j) => j.reason === null);
  open.sort(
    (a, b) =>
      a.candidate.count / a.candidate.leads_number - b.candidate.count / b.candidate.leads_number ||
      time(a.candidate.last_delivery_at) - time(b.candidate.last_delivery_at) ||
      a.candidate.id - b.candidate.id,
  );
  const closed = judged.filter((j) => j.reason !== null).sort((a, b) => a.candidate.id - b.candidate.id);
  return [...open, ...closed];
}

/** The candidates as a lead's routing explanation keeps them. */
export const considered = (judged: Judged[]): Omit<RoutingCandidate, 'deleted'>[] =>
  judged.map(({ candidate: c, reason }) => ({
    rule_id: c.id,
    rule_name: c.name,
    customer_id: c.customer_id,
    customer_name: c.customer_name,
    count: c.count,
    leads_number: c.leads_number,
    reason,
  }));
