// The replay (issue 27): the replays of one world (before and after a draft) answer as on worlds never replayed;
// on random worlds it sells what the reference model sells.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LandingColumn } from '../../../../../src/api/landings/contract';
import type { RuleFilter } from '../../../../../server/services/delivery/filters';
import { simulate, type ModelRule } from '../../../../../server/services/delivery/model';
import { parisClock } from '../../../../../server/services/delivery/paris-time';
import { replay, type ReplayRule, type ReplayWorld } from '../../../../../server/services/delivery/replay';
import { replayLeads } from '../../../../../server/services/delivery/replay-leads';
import { personOf } from '../../../../../server/services/sales/person';
import { weekdays } from '../../../../../src/api/rules/contract';

const rule = (id: number, changes: Partial<ReplayRule> = {}): ReplayRule => ({
  id,
  name: `Règle ${id}`,
  customer_id: id,
  landing_ids: [1],
  zip: [],
  active: true,
  hour_start: '00:00',
  hour_end: '23:59',
  leads_number: 3,
  days: Object.fromEntries(weekdays.map((d) => [d, true])) as ReplayRule['days'],
  caps: { hour: null, week: null, month: null },
  priority: 5,
  weight: null,
  filters: [],
  exclusive: true,
  price_cents: null,
  ...changes,
});

/** Ten leads an hour apart from 06:00 Paris, every other one heated by gas. */
function world(): ReplayWorld {
  const customer = (id: number) => ({ id, name: `Client ${id}`, active: true, dedupe_days: 0, default_price_cents: 100, monthly_budget_cents: null });
  return {
    landings: new Map([[1, { columns: [{ key: 'chauffage', type: 'text' as const }], max_buyers: 1 }]]),
    customers: new Map([1, 2].map((id) => [id, customer(id)])),
    leads: replayLeads({
      id: Array.from({ length: 10 }, (_, n) => n + 1),
      landing_id: Array.from({ length: 10 }, () => 1),
      at: Array.from({ length: 10 }, (_, n) => Date.parse('2026-11-10T05:00:00Z') + n * 3_600_000),
      departement: Array.from({ length: 10 }, () => 'FR-30'),
      fields: { chauffage: Array.from({ length: 10 }, (_, n) => (n % 2 ? 'Gaz' : 'Fioul')) },
    }),
    past: [],
    credits: [],
  };
}

describe('replay', () => {
  it('judges a world again with a changed rule as it would a world never replayed (the settings verdicts held per rule)', () => {
    const gas = rule(2, { filters: [{ column: 'chauffage', op: 'eq', value: 'Gaz' }], priority: 1 });
    const before = [rule(1), gas];
    const after = [rule(1), { ...gas, filters: [], hour_start: '10:00' }];
    const shared = world();
    const first = replay(shared, before);
    expect(replay(shared, after)).toEqual(replay(world(), after));
    expect(replay(shared, before)).toEqual(first);
    // The gas leads go to rule 2 first, each rule up to its cap of 3; without its filter, rule 2 takes leads from 10:00.
    expect(first.sales.map((s) => s.rule_id)).toEqual([1, 2, 1, 2, 1, 2]);
    expect(replay(shared, after).sales.map((s) => s.rule_id)).toEqual([1, 1, 1, 2, 2, 2]);
  });
});

// The replay over columns gives the reference model's sales (model.ts, which the engine matches on
// the database: tests/api/delivery-model.property.test.ts) for random rules and lead streams routed
// one lead at a time: windows, priorities, weights, filters, exclusivity, max_buyers, dedupe, prices, budgets.
const columns: Array<Pick<LandingColumn, 'key' | 'type'>> = [
  { key: 'telephone', type: 'phone' },
  { key: 'email', type: 'email' },
  { key: 'chauffage', type: 'select' },
  { key: 'surface', type: 'number' },
  { key: 'naissance', type: 'date' },
];
const filterArb: fc.Arbitrary<RuleFilter> = fc.oneof(
  fc.record({ column: fc.constant('chauffage'), op: fc.constantFrom('eq' as const, 'neq' as const), value: fc.constantFrom('gaz', 'FIOUL') }),
  fc.record({ column: fc.constant('chauffage'), op: fc.constant('not_in' as const), value: fc.constant<string[]>(['Gaz', 'électrique']) }),
  fc.record({ column: fc.constant('surface'), op: fc.constantFrom('gte' as const, 'lte' as const), value: fc.constantFrom(50, 100) }),
  fc.record({ column: fc.constant('naissance'), op: fc.constant('age_between' as const), value: fc.constant<[number, number]>([30, 60]) }),
  fc.record({ column: fc.constant('source'), op: fc.constant('eq' as const), value: fc.constant('google') }),
);
const scenario = fc.record({
  start: fc.constantFrom('2026-03-27T00:00:00Z', '2026-10-23T00:00:00Z', '2026-06-29T00:00:00Z'),
  customers: fc.array(
    fc.record({ dedupe: fc.constantFrom(0, 1, 30), price: fc.constantFrom(0, 100, 250), budget: fc.option(fc.constantFrom(0, 300, 700), { nil: null }) }),
    { minLength: 3, maxLength: 3 },
  ),
  maxBuyers: fc.integer({ min: 1, max: 3 }),
  rules: fc.array(
    fc.record({
      customer: fc.nat(2),
      active: fc.constantFrom(true, true, true, false),
      hours: fc.constantFrom(['00:00', '23:59'], ['08:00', '20:00'], ['22:00', '03:00']),
      leads_number: fc.integer({ min: 1, max: 4 }),
      caps: fc.record({
        hour: fc.option(fc.integer({ min: 1, max: 2 }), { nil: null }),
        week: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
        month: fc.option(fc.integer({ min: 2, max: 8 }), { nil: null }),
      }),
      priority: fc.integer({ min: 1, max: 3 }),
      weight: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
      filters: fc.array(filterArb, { maxLength: 2 }),
      exclusive: fc.boolean(),
      sunday: fc.boolean(),
      price_cents: fc.option(fc.constantFrom(50, 400), { nil: null }),
    }),
    { minLength: 1, maxLength: 5 },
  ),
  leads: fc.array(
    fc.record({
      hour: fc.constantFrom(8, 9, 33, 49, 50, 58, 73, 81, 97, 118),
      minute: fc.integer({ min: 0, max: 59 }),
      phone: fc.option(fc.constantFrom('0611111111', '+33 6 11 11 11 11', '0622222222'), { nil: null }),
      email: fc.option(fc.constantFrom('a@x.fr', 'A@X.FR ', 'c@x.fr'), { nil: null }),
      chauffage: fc.option(fc.constantFrom('Gaz', 'Fioul', 'Électrique'), { nil: null }),
      surface: fc.option(fc.oneof(fc.integer({ min: 20, max: 200 }), fc.constant('75')), { nil: null }),
      naissance: fc.option(fc.constantFrom('1966-10-25', '1980-06-30', '1996-03-28'), { nil: null }),
      source: fc.constantFrom('google', 'facebook'),
    }),
    { minLength: 4, maxLength: 18 },
  ),
});

describe('replay against the reference model', () => {
  it('sells what the model sells, lead by lead, rule, customer and price', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const customers = s.customers.map((c, i) => ({
          id: i + 1,
          name: `Client ${i + 1}`,
          active: true,
          dedupe_days: c.dedupe,
          default_price_cents: c.price,
          monthly_budget_cents: c.budget,
        }));
        const rules: ModelRule[] = s.rules.map((r, i) => ({
          id: i + 1,
          customer_id: r.customer + 1,
          landing_id: 1,
          active: r.active,
          hour_start: r.hours[0],
          hour_end: r.hours[1],
          days: Object.fromEntries(weekdays.map((d) => [d, d === 'sunday' ? r.sunday : true])) as ModelRule['days'],
          leads_number: r.leads_number,
          caps: r.caps,
          priority: r.priority,
          weight: r.weight,
          filters: r.filters,
          exclusive: r.exclusive,
          price_cents: r.price_cents,
        }));
        const stream = s.leads.map((l) => ({ ...l, at: Date.parse(s.start) + l.hour * 3_600_000 + l.minute * 60_000 })).sort((a, b) => a.at - b.at);
        const data = (l: (typeof stream)[number]) => ({
          telephone: l.phone,
          email: l.email,
          chauffage: l.chauffage,
          surface: l.surface,
          naissance: l.naissance,
        });
        const expected = simulate(
          { rules, customers, landings: [{ id: 1, columns, max_buyers: s.maxBuyers }] },
          stream.map((l) => ({
            landing_id: 1,
            data: data(l),
            source: l.source,
            utm_source: null,
            utm_medium: null,
            utm_campaign: null,
            arrival_day: parisClock(new Date(l.at)).day,
            person: personOf(data(l), columns),
            at: new Date(l.at),
          })),
        );
        const replayed = replay(
          {
            landings: new Map([[1, { columns, max_buyers: s.maxBuyers }]]),
            customers: new Map(customers.map((c) => [c.id, c])),
            leads: replayLeads({
              id: stream.map((_, n) => n + 1),
              landing_id: stream.map(() => 1),
              at: stream.map((l) => l.at),
              departement: stream.map(() => '30'),
              phone: stream.map((l) => l.phone),
              email: stream.map((l) => l.email),
              fields: {
                chauffage: stream.map((l) => l.chauffage),
                surface: stream.map((l) => l.surface),
                naissance: stream.map((l) => l.naissance),
                source: stream.map((l) => l.source),
              },
            }),
            past: [],
            credits: [],
          },
          rules.map(({ landing_id, ...r }) => ({ ...r, name: `Règle ${r.id}`, landing_ids: [landing_id], zip: [] })),
        );
        expect(replayed.sales.map(({ day: _, ...sale }) => sale)).toEqual(
          expected.map((sale) => ({ lead: sale.lead, rule_id: sale.rule_id, customer_id: sale.customer_id, price_cents: sale.price_cents })),
        );
      }),
      { numRuns: 100 },
    );
  });
});
