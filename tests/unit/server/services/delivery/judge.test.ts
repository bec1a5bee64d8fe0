import { describe, expect, it } from 'vitest';
import { judge, nextVerdict, passReason, todaysRule, type Candidate, type JudgedLead } from '../../../../../server/services/delivery/judge';
import { inWindow, parisClock } from '../../../../../server/services/delivery/paris-time';
import { zipKeys } from '../../../../../server/services/delivery/engine';

const everyDay = { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: true, sunday: true };
const rule = (over: Partial<Candidate> = {}): Candidate => ({
  id: 1,
  name: 'R',
  customer_id: 1,
  customer_name: 'C',
  customer_active: true,
  active: true,
  hour_start: '00:00',
  hour_end: '23:59',
  leads_number: 10,
  zip: [],
  days: everyDay,
  count: 0,
  last_delivery_at: null,
  ...todaysRule,
  ...over,
});
const lead = (data: Record<string, unknown> = {}, over: Partial<JudgedLead['lead']> = {}): JudgedLead => ({
  lead: { data, source: 'google', utm_source: null, utm_medium: null, utm_campaign: null, arrival_day: '2026-11-23', ...over },
  columns: [
    { key: 'chauffage', type: 'select' },
    { key: 'surface', type: 'number' },
    { key: 'naissance', type: 'date' },
  ],
});
const why = (c: Candidate, clock: ReturnType<typeof parisClock>, l = lead()) => passReason(c, clock, l).reason;

describe('Paris time', () => {
  it('reads the Paris day, weekday and minute across both DST changes', () => {
    expect(parisClock(new Date('2026-11-23T09:15:00Z'))).toEqual({
      day: '2026-11-23',
      weekday: 'monday',
      minute: 10 * 60 + 15,
      label: '2026-11-23 10:15',
      windows: { hour: '2026-11-23 10:00', week: '2026-11-23 00:00', month: '2026-11-01 00:00' },
    });
    // 23:30 UTC on Sunday is already Monday in Paris.
    expect(parisClock(new Date('2026-11-22T23:30:00Z'))).toMatchObject({ day: '2026-11-23', weekday: 'monday', minute: 30 });
    // 29 March 2026: 02:00 CET jumps to 03:00 CEST; 01:30 UTC is 03:30.
    expect(parisClock(new Date('2026-03-29T00:59:00Z')).label).toBe('2026-03-29 01:59');
    expect(parisClock(new Date('2026-03-29T01:00:00Z')).label).toBe('2026-03-29 03:00');
    // 25 October 2026: 02:30 happens twice (CEST then CET).
    expect(parisClock(new Date('2026-10-25T00:30:00Z')).label).toBe('2026-10-25 02:30');
    expect(parisClock(new Date('2026-10-25T01:30:00Z')).label).toBe('2026-10-25 02:30');
  });

  it('starts the hour on the wall clock, the week on Monday, the month on the 1st', () => {
    // Sunday 1 March 2026, 23:30 Paris: the week began Monday 23 February.
    expect(parisClock(new Date('2026-03-01T22:30:00Z')).windows).toEqual({ hour: '2026-03-01 23:00', week: '2026-02-23 00:00', month: '2026-03-01 00:00' });
    // The October 02:00 hour, CEST then CET, is one wall-clock hour.
    expect(parisClock(new Date('2026-10-25T00:10:00Z')).windows.hour).toBe('2026-10-25 02:00');
    expect(parisClock(new Date('2026-10-25T01:50:00Z')).windows.hour).toBe('2026-10-25 02:00');
    // Across a year: Thursday 1 January 2026 is in the week of Monday 29 December 2025.
    expect(parisClock(new Date('2025-12-31T23:30:00Z')).windows).toMatchObject({ week: '2025-12-29 00:00', month: '2026-01-01 00:00' });
  });

  it('includes both ends of a window, and an end before the start spans midnight', () => {
    expect(inWindow(8 * 60, '08:00', '12:00')).toBe(true);
    expect(inWindow(12 * 60, '08:00', '12:00')).toBe(true);
    expect(inWindow(12 * 60 + 1, '08:00', '12:00')).toBe(false);
    expect(inWindow(23 * 60 + 59, '00:00', '23:59')).toBe(true);
    expect(inWindow(23 * 60, '22:00', '06:00')).toBe(true);
    expect(inWindow(0, '22:00', '06:00')).toBe(true);
    expect(inWindow(6 * 60, '22:00', '06:00')).toBe(true);
    expect(inWindow(6 * 60 + 1, '22:00', '06:00')).toBe(false);
    expect(inWindow(21 * 60 + 59, '22:00', '06:00')).toBe(false);
  });
});

describe('judging rules', () => {
  const monday10 = parisClock(new Date('2026-11-23T09:00:00Z'));

  it('names the first reason a rule is passed over', () => {
    expect(why(rule(), monday10)).toBeNull();
    expect(why(rule({ active: false, customer_active: false }), monday10)).toBe('paused');
    expect(why(rule({ customer_active: false }), monday10)).toBe('customer_paused');
    expect(why(rule({ days: { ...everyDay, monday: false } }), monday10)).toBe('day');
    expect(why(rule({ hour_start: '11:00', hour_end: '18:00' }), monday10)).toBe('hours');
    expect(why(rule({ count: 10 }), monday10)).toBe('cap');
  });

  it('never opens a window inside the hour the spring change skips, and opens one twice in the autumn', () => {
    const spring = parisClock(new Date('2026-03-29T01:30:00Z'));
    expect(why(rule({ hour_start: '02:00', hour_end: '02:59' }), spring)).toBe('hours');
    expect(why(rule({ hour_start: '03:00', hour_end: '03:59' }), spring)).toBeNull();
    const autumn = ['2026-10-25T00:30:00Z', '2026-10-25T01:30:00Z'].map((t) => parisClock(new Date(t)));
    for (const clock of autumn) expect(why(rule({ hour_start: '02:00', hour_end: '02:59' }), clock)).toBeNull();
  });

  it('tries the least filled rule first, then the oldest delivery, then the oldest rule', () => {
    const order = judge(
      [
        rule({ id: 1, count: 5, leads_number: 10 }),
        rule({ id: 2, count: 1, leads_number: 10, last_delivery_at: '2026-11-23T08:00:00Z' }),
        rule({ id: 3, count: 1, leads_number: 10, last_delivery_at: '2026-11-23T07:00:00Z' }),
        rule({ id: 4, count: 0, leads_number: 2, active: false }),
        rule({ id: 5, count: 3, leads_number: 20 }),
        rule({ id: 6, count: 3, leads_number: 3 }),
      ],
      monday10,
      lead(),
    );
    expect(order.map((j) => [j.candidate.id, j.reason])).toEqual([
      [3, null],
      [2, null],
      [5, null],
      [1, null],
      [4, 'paused'],
      [6, 'cap'],
    ]);
  });

  it('orders by priority, then count / weight, a null weight reading the daily cap', () => {
    const order = judge(
      [
        rule({ id: 1, priority: 5, count: 0 }),
        rule({ id: 2, priority: 2, count: 9 }),
        // 4 / 400 = 0.01 < 1 / 10 = 0.1 < 30 / 100 = 0.3
        rule({ id: 3, priority: 1, count: 30, weight: 100, leads_number: 50 }),
        rule({ id: 4, priority: 1, count: 1, leads_number: 10 }),
        rule({ id: 5, priority: 1, count: 4, weight: 400, leads_number: 5 }),
        rule({ id: 6, priority: 1, count: 5, leads_number: 5, weight: 10_000 }),
      ],
      monday10,
      lead(),
    );
    expect(order.map((j) => [j.candidate.id, j.reason])).toEqual([
      [5, null],
      [4, null],
      [3, null],
      [2, null],
      [1, null],
      [6, 'cap'],
    ]);
  });

  it('names the full window, the failed filter and a customer that bought the person', () => {
    const caps = (over: Partial<Candidate['caps']>, counts: Partial<Candidate['counts']>) =>
      rule({ caps: { ...todaysRule.caps, ...over }, counts: { ...todaysRule.counts, ...counts } });
    expect(why(caps({ hour: 2 }, { hour: 2 }), monday10)).toBe('cap_hour');
    expect(why(caps({ hour: 3 }, { hour: 2 }), monday10)).toBeNull();
    expect(why(caps({ week: 5 }, { week: 5, hour: 9 }), monday10)).toBe('cap_week');
    expect(why(caps({ month: 1 }, { month: 1 }), monday10)).toBe('cap_month');
    // Counted but not capped: a null cap never closes a window.
    expect(why(caps({}, { hour: 1000, week: 1000, month: 1000 }), monday10)).toBeNull();
    const gas = { column: 'chauffage', op: 'eq', value: 'gaz' } as const;
    expect(passReason(rule({ filters: [gas] }), monday10, lead({ chauffage: 'Fioul' }))).toEqual({ reason: 'filter', filter: gas });
    expect(why(rule({ filters: [gas] }), monday10, lead({ chauffage: ' GAZ ' }))).toBeNull();
    expect(why(rule({ sold_to_person: true }), monday10)).toBe('already_sold_to_customer');
    // Filters come before the person and the caps.
    expect(why(rule({ filters: [gas], sold_to_person: true, count: 10 }), monday10)).toBe('filter');
  });

  it('passes over a rule whose customer’s month would pass its budget with this rule’s price, after the caps', () => {
    const priced = (price_cents: number, cents: number | null, spent: number) => rule({ price_cents, budget: { cents, spent } });
    expect(why(priced(300, 1000, 700), monday10)).toBeNull();
    expect(why(priced(301, 1000, 700), monday10)).toBe('budget');
    // Credits can leave the month below zero; a free lead fits an exhausted budget; no budget, no limit.
    expect(why(priced(300, 1000, -200), monday10)).toBeNull();
    expect(why(priced(0, 0, 0), monday10)).toBeNull();
    expect(why(priced(100_000, null, 10_000_000), monday10)).toBeNull();
    expect(why(rule({ count: 10, price_cents: 5, budget: { cents: 0, spent: 0 } }), monday10)).toBe('cap');
  });

  it('shares a lead only after a non-exclusive first rule, one rule per customer, up to max_buyers', () => {
    const exclusive = rule({ id: 1, customer_id: 1 });
    const shared = (id: number, customer: number) => rule({ id, customer_id: customer, exclusive: false });
    expect(nextVerdict(exclusive, [], 1)).toBeNull();
    expect(nextVerdict(shared(2, 2), [exclusive], 3)).toBe('exclusive_elsewhere');
    expect(nextVerdict(rule({ id: 3, customer_id: 3 }), [exclusive], 3)).toBe('lost');
    expect(nextVerdict(rule({ id: 3, customer_id: 3 }), [shared(2, 2)], 3)).toBe('lost');
    expect(nextVerdict(shared(4, 2), [shared(2, 2)], 3)).toBe('same_customer');
    expect(nextVerdict(shared(5, 5), [shared(2, 2)], 3)).toBeNull();
    expect(nextVerdict(shared(5, 5), [shared(2, 2), shared(6, 6)], 2)).toBe('max_buyers');
  });

  it('looks a lead up everywhere, by postal code and by department', () => {
    expect(zipKeys('30900', '30')).toEqual(['', '30900', '30']);
    expect(zipKeys('20000', '2A')).toEqual(['', '20000', '2A']);
    expect(zipKeys(null, '')).toEqual(['']);
    expect(zipKeys('99999', '')).toEqual(['', '99999']);
  });
});
