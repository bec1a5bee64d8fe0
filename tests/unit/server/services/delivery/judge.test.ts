import { describe, expect, it } from 'vitest';
import { judge, passReason, type Candidate } from '../../../../../server/services/delivery/judge';
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
  ...over,
});

describe('Paris time', () => {
  it('reads the Paris day, weekday and minute across both DST changes', () => {
    expect(parisClock(new Date('2026-11-23T09:15:00Z'))).toEqual({ day: '2026-11-23', weekday: 'monday', minute: 10 * 60 + 15, label: '2026-11-23 10:15' });
    // 23:30 UTC on Sunday is already Monday in Paris.
    expect(parisClock(new Date('2026-11-22T23:30:00Z'))).toMatchObject({ day: '2026-11-23', weekday: 'monday', minute: 30 });
    // 29 March 2026: 02:00 CET jumps to 03:00 CEST; 01:30 UTC is 03:30.
    expect(parisClock(new Date('2026-03-29T00:59:00Z')).label).toBe('2026-03-29 01:59');
    expect(parisClock(new Date('2026-03-29T01:00:00Z')).label).toBe('2026-03-29 03:00');
    // 25 October 2026: 02:30 happens twice (CEST then CET).
    expect(parisClock(new Date('2026-10-25T00:30:00Z')).label).toBe('2026-10-25 02:30');
    expect(parisClock(new Date('2026-10-25T01:30:00Z')).label).toBe('2026-10-25 02:30');
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
    expect(passReason(rule(), monday10)).toBeNull();
    expect(passReason(rule({ active: false, customer_active: false }), monday10)).toBe('paused');
    expect(passReason(rule({ customer_active: false }), monday10)).toBe('customer_paused');
    expect(passReason(rule({ days: { ...everyDay, monday: false } }), monday10)).toBe('day');
    expect(passReason(rule({ hour_start: '11:00', hour_end: '18:00' }), monday10)).toBe('hours');
    expect(passReason(rule({ count: 10 }), monday10)).toBe('cap');
  });

  it('never opens a window inside the hour the spring change skips, and opens one twice in the autumn', () => {
    const spring = parisClock(new Date('2026-03-29T01:30:00Z'));
    expect(passReason(rule({ hour_start: '02:00', hour_end: '02:59' }), spring)).toBe('hours');
    expect(passReason(rule({ hour_start: '03:00', hour_end: '03:59' }), spring)).toBeNull();
    const autumn = ['2026-10-25T00:30:00Z', '2026-10-25T01:30:00Z'].map((t) => parisClock(new Date(t)));
    for (const clock of autumn) expect(passReason(rule({ hour_start: '02:00', hour_end: '02:59' }), clock)).toBeNull();
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

  it('looks a lead up everywhere, by postal code and by department', () => {
    expect(zipKeys('30900', '30')).toEqual(['', '30900', '30']);
    expect(zipKeys('20000', '2A')).toEqual(['', '20000', '2A']);
    expect(zipKeys(null, '')).toEqual(['']);
    expect(zipKeys('99999', '')).toEqual(['', '99999']);
  });
});
