// The replay (issue 27): its clock, computed from its hour's, tells every minute as parisClock does, across both
// daylight-saving changes; the replays of one world (before and after a draft) answer as on worlds never replayed.
import { describe, expect, it } from 'vitest';
import { parisClock } from '../../../../../server/services/delivery/paris-time';
import { parisClockAt, replay, type ReplayRule, type ReplayWorld } from '../../../../../server/services/delivery/replay';
import { weekdays } from '../../../../../src/api/rules/contract';

describe('parisClockAt', () => {
  it('is parisClock at every minute of the March and October changes and of a month’s turn, seconds aside', () => {
    for (const start of ['2026-03-28T20:00:00Z', '2026-10-24T20:00:00Z', '2026-11-30T20:00:00Z'])
      for (let m = 0; m < 12 * 60; m++) {
        const at = Date.parse(start) + m * 60_000 + 17_000;
        expect(parisClockAt(at)).toEqual(parisClock(new Date(at)));
      }
  });
});

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
    leads: Array.from({ length: 10 }, (_, n) => {
      const at = Date.parse('2026-11-10T05:00:00Z') + n * 3_600_000;
      return {
        id: n + 1,
        landing_id: 1,
        at,
        keys: ['', 'FR-30'],
        phone: null,
        email: null,
        data: { chauffage: n % 2 ? 'Gaz' : 'Fioul' },
        source: null,
        utm_source: null,
        utm_medium: null,
        utm_campaign: null,
        arrival_day: parisClockAt(at).day,
      };
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
