import type { PassReason } from '../../../src/api/rules/contract';
import { toRegion, type CoverageState, type DepartmentCoverage, type ProductionCategory } from '../../../src/api/productions/contract';
import type { Queryable } from '../../db/connection';
import { candidateRules } from '../delivery/engine';
import { passReason, type Candidate, type JudgedLead } from '../delivery/judge';
import { parisClock, type ParisClock } from '../delivery/paris-time';
import { departementFor } from '../geo';
import { mapDepartementList } from './departments';
import { categoryLandings } from './regions';

type Rule = Candidate & { leads: number[] };

const fullReasons: ReadonlySet<PassReason> = new Set(['cap', 'cap_hour', 'cap_week', 'cap_month', 'budget']);

/** A lead as the coverage imagines it: it passes every filter (they are not judged, see below). */
const anyLead = (clock: ParisClock): JudgedLead => ({
  lead: { data: {}, source: null, utm_source: null, utm_medium: null, utm_campaign: null, arrival_day: clock.day },
  columns: [],
});

/**
 * How a rule stands for a new lead at the instant, by the live engine's judge: its filters are
 * left out (a lead that passes them may come) and the lead is a person none of its customers
 * bought. A rule closed today with no weekday ticked never opens.
 */
function stateOf(rule: Rule, clock: ParisClock): CoverageState {
  const { reason } = passReason({ ...rule, filters: [], sold_to_person: false }, clock, anyLead(clock));
  if (reason === null) return 'open';
  if (fullReasons.has(reason)) return 'full';
  if ((reason === 'day' && Object.values(rule.days).some(Boolean)) || reason === 'hours') return 'closed';
  return 'none';
}

/** Leads an open rule may still take today: its smallest room left under its caps and its customer's budget. */
function remaining(rule: Rule): number {
  const rooms = [rule.leads_number - rule.count];
  for (const span of ['hour', 'week', 'month'] as const) if (rule.caps[span] !== null) rooms.push(rule.caps[span] - rule.counts[span]);
  if (rule.budget.cents !== null && rule.price_cents > 0) rooms.push(Math.floor((rule.budget.cents - rule.budget.spent) / rule.price_cents));
  return Math.max(0, Math.min(...rooms));
}

const rank: Record<CoverageState, number> = { open: 0, full: 1, closed: 2, none: 3 };

/**
 * The coverage map (issue 27): for each department of the map, how the rules of these landings
 * stand for a lead arriving there at `at`. The rules are read by the engine's own query, their
 * targets on the landings standing for the leads ('' everywhere, a department, or a postal code:
 * its department is covered, as a lead with that code would be); their counters are those of
 * `at`'s Paris day, hour, week and month.
 */
export async function coverage(db: Queryable, category: ProductionCategory, opts: { landings: number[]; at?: Date }): Promise<DepartmentCoverage[]> {
  await categoryLandings(db, category, opts.landings);
  return coverageOf(db, opts);
}

/** The coverage of landings known to exist, of any category (a Taboola campaign may feed several maps). */
export async function coverageOf(db: Queryable, opts: { landings: number[]; at?: Date }): Promise<DepartmentCoverage[]> {
  const at = opts.at ?? new Date();
  const clock = parisClock(at);
  const { rows: targets } = await db.query<{ landing_id: number; zip_key: string }>(
    'SELECT DISTINCT landing_id, zip_key FROM rule_targets WHERE landing_id = ANY($1::int[]) ORDER BY 1, 2',
    [opts.landings],
  );
  const rules = await candidateRules(
    db,
    targets.map((t, i) => ({ id: i, landing_id: t.landing_id, key: t.zip_key })),
    clock,
  );
  // Department ('' everywhere) of each target.
  const where = targets.map((t) => (t.zip_key === '' || !/^\d{5}$/.test(t.zip_key) ? t.zip_key : departementFor(t.zip_key)));
  const everywhere: Rule[] = [];
  const byDepartement = new Map<string, Rule[]>();
  for (const rule of rules) {
    const places = new Set(rule.leads.map((i) => where[i]));
    if (places.has('')) everywhere.push(rule);
    else for (const d of places) byDepartement.set(d, [...(byDepartement.get(d) ?? []), rule]);
  }

  const { rows: unsold } = await db.query<{ departement: string; n: number }>(
    `SELECT departement, count(*)::int AS n FROM leads
      WHERE landing_id = ANY($1::int[]) AND entry_status = 'new'
        AND created_at >= ($2::date::timestamp AT TIME ZONE 'Europe/Paris') AND created_at <= $3
      GROUP BY departement`,
    [opts.landings, clock.day, at],
  );
  const unsoldOf = new Map(unsold.map((r) => [r.departement, r.n]));

  return mapDepartementList().map((departement) => {
    const here = [...everywhere, ...(byDepartement.get(departement) ?? [])];
    const states = here.map((rule) => ({ rule, state: stateOf(rule, clock) }));
    const open = states.filter((s) => s.state === 'open');
    const state = states.reduce<CoverageState>((best, s) => (rank[s.state] < rank[best] ? s.state : best), 'none');
    return {
      departement: toRegion(departement),
      state,
      open_rules: open.length,
      remaining_today: open.reduce((sum, s) => sum + remaining(s.rule), 0),
      unsold_today: unsoldOf.get(departement) ?? 0,
    };
  });
}
