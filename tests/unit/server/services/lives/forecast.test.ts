import { describe, expect, it } from 'vitest';
import { expectedFullMinute } from '../../../../../server/services/lives/forecast';

// A past day like today: 10 arrivals from 08:00 to 17:00, one an hour.
const day = Array.from({ length: 10 }, (_, i) => (8 + i) * 60);

describe('the cap forecast', () => {
  it('reaches the cap where the past arrivals reach today’s pace times the cap', () => {
    // By 10:30 three of the ten came (F = 0.3); the rule took 3: at that pace it takes 10 a day,
    // so 6 of them by the 6th arrival, 13:00.
    expect(expectedFullMinute({ count: 3, cap: 6, now: 10 * 60 + 30, arrivals: day })).toBe(13 * 60);
    // A third of the pace, a third of the cap: the same hour.
    expect(expectedFullMinute({ count: 1, cap: 2, now: 10 * 60 + 30, arrivals: day })).toBe(13 * 60);
    // A fast morning: twice the past share already taken, the cap comes sooner.
    expect(expectedFullMinute({ count: 6, cap: 8, now: 10 * 60 + 30, arrivals: day })).toBe(11 * 60);
  });

  it('answers the next arrival when one more lead fills the cap', () => {
    expect(expectedFullMinute({ count: 9, cap: 10, now: 10 * 60 + 30, arrivals: day })).toBe(11 * 60);
  });

  it('is null when full, idle, without a past by now, or not expected to fill today', () => {
    const now = 10 * 60 + 30;
    expect(expectedFullMinute({ count: 6, cap: 6, now, arrivals: day })).toBeNull();
    expect(expectedFullMinute({ count: 0, cap: 6, now, arrivals: day })).toBeNull();
    expect(expectedFullMinute({ count: 2, cap: 6, now, arrivals: [] })).toBeNull();
    expect(expectedFullMinute({ count: 2, cap: 6, now: 7 * 60, arrivals: day })).toBeNull();
    // 3 taken by 10:30 → 10 a day: a cap of 11 is not reached today.
    expect(expectedFullMinute({ count: 3, cap: 11, now, arrivals: day })).toBeNull();
    expect(expectedFullMinute({ count: 3, cap: 10, now, arrivals: day })).toBe(17 * 60);
  });
});
