import type { LandingColumn } from '../../../src/api/landings/contract';
import type { Weekday } from '../../../src/api/rules/contract';
import type { Person } from '../sales/person';
import type { FilteredLead, RuleFilter } from './filters';
import { judge, nextVerdict, type Candidate } from './judge';
import { parisClock, windowSpans } from './paris-time';

/**
 * The reference model of live delivery (docs/decisions.md §11): what a stream of leads should
 * give under a set of rules, decided in memory from the sales alone (their prices make each
 * customer's month against its budget), with the engine's pure judge. Leads routed at the same
 * moment (one batch) are decided in the stream's order.
 * The property test requires the engine on the real database to give exactly these sales.
 */
export interface ModelRule {
  id: number;
  customer_id: number;
  landing_id: number;
  active: boolean;
  hour_start: string;
  hour_end: string;
  days: Record<Weekday, boolean>;
  leads_number: number;
  caps: Candidate['caps'];
  priority: number;
  weight: number | null;
  filters: RuleFilter[];
  exclusive: boolean;
  /** null: the customer's default price. */
  price_cents: number | null;
}

export interface ModelCustomer {
  id: number;
  active: boolean;
  dedupe_days: number;
  default_price_cents: number;
  /** null: no budget. */
  monthly_budget_cents: number | null;
}

export interface ModelLead extends FilteredLead {
  landing_id: number;
  person: Person;
  /** When it is routed (and sold). */
  at: Date;
}

export interface ModelSale {
  /** Index of the lead in the stream; -1 for a sale made before it (an export). */
  lead: number;
  rule_id: number | null;
  customer_id: number;
  person: Person;
  sold_at: Date;
  price_cents: number;
}

export interface ModelWorld {
  rules: ModelRule[];
  customers: ModelCustomer[];
  landings: Array<{ id: number; columns: Pick<LandingColumn, 'key' | 'type'>[]; max_buyers: number }>;
  /** Sales made before the stream (exports): they count for the customers' dedupe. */
  before?: ModelSale[];
}

const samePerson = (a: Person, b: Person) => (a.phone !== null && a.phone === b.phone) || (a.email !== null && a.email === b.email);

/** The sales a stream of leads gives, in the order made (each lead's in the engine's order). */
export function simulate(world: ModelWorld, leads: ModelLead[]): ModelSale[] {
  const sales: ModelSale[] = [...(world.before ?? [])];
  const made: ModelSale[] = [];
  leads.forEach((lead, index) => {
    const clock = parisClock(lead.at);
    const landing = world.landings.find((l) => l.id === lead.landing_id)!;
    const customers = new Map(world.customers.map((c) => [c.id, c]));
    const candidates: Candidate[] = world.rules
      .filter((r) => r.landing_id === lead.landing_id)
      .map((r) => {
        const mine = sales.filter((s) => s.rule_id === r.id);
        const today = mine.filter((s) => parisClock(s.sold_at).day === clock.day);
        const last = today.length > 0 ? sales.lastIndexOf(today[today.length - 1]) : null;
        const customer = customers.get(r.customer_id)!;
        const since = lead.at.getTime() - customer.dedupe_days * 86_400_000;
        const month = sales.filter((s) => s.customer_id === r.customer_id && parisClock(s.sold_at).windows.month === clock.windows.month);
        return {
          id: r.id,
          name: `R${r.id}`,
          customer_id: r.customer_id,
          customer_name: `C${r.customer_id}`,
          customer_active: customer.active,
          active: r.active,
          hour_start: r.hour_start,
          hour_end: r.hour_end,
          leads_number: r.leads_number,
          zip: [],
          days: r.days,
          count: today.length,
          // Only the order of the last deliveries matters: the sale's rank stands for its time.
          last_delivery_at: last === null ? null : new Date(last),
          caps: r.caps,
          counts: Object.fromEntries(
            windowSpans.map((span) => [span, mine.filter((s) => parisClock(s.sold_at).windows[span] === clock.windows[span]).length]),
          ) as Candidate['counts'],
          priority: r.priority,
          weight: r.weight,
          filters: r.filters,
          exclusive: r.exclusive,
          sold_to_person:
            customer.dedupe_days > 0 && sales.some((s) => s.customer_id === r.customer_id && s.sold_at.getTime() > since && samePerson(s.person, lead.person)),
          price_cents: r.price_cents ?? customer.default_price_cents,
          budget: { cents: customer.monthly_budget_cents, spent: month.reduce((sum, s) => sum + s.price_cents, 0) },
        };
      });
    const sold: Candidate[] = [];
    for (const j of judge(candidates, clock, { lead, columns: landing.columns })) {
      if (j.reason !== null || nextVerdict(j.candidate, sold, landing.max_buyers) !== null) continue;
      sold.push(j.candidate);
      const sale = {
        lead: index,
        rule_id: j.candidate.id,
        customer_id: j.candidate.customer_id,
        person: lead.person,
        sold_at: lead.at,
        price_cents: j.candidate.price_cents,
      };
      sales.push(sale);
      made.push(sale);
    }
  });
  return made;
}
