import { describe, expect, it } from 'vitest';
import { parisToday, splitRange } from '../../../../../server/services/leads/stats';

describe('splitRange', () => {
  it('reads the whole months from the statistics and the days at both ends from the leads', () => {
    expect(splitRange('2025-11-28', '2026-10-14', '2026-11-28')).toEqual({
      months: ['2025-12-01', '2026-10-01'],
      days: [
        ['2025-11-28', '2025-12-01'],
        ['2026-10-01', '2026-10-15'],
      ],
    });
  });

  it('takes the last month whole when the range ends today or later: no lead is created after now', () => {
    expect(splitRange('2025-11-28', '2026-11-28', '2026-11-28')).toEqual({ months: ['2025-12-01', '2026-12-01'], days: [['2025-11-28', '2025-12-01']] });
    expect(splitRange('2026-11-03', '2026-12-31', '2026-11-28')).toEqual({ months: ['2026-12-01', '2027-01-01'], days: [['2026-11-03', '2026-12-01']] });
  });

  it('keeps a range within one month to the leads, up to the month end when it reaches today', () => {
    expect(splitRange('2026-11-03', '2026-11-10', '2026-11-28')).toEqual({ months: null, days: [['2026-11-03', '2026-11-11']] });
    expect(splitRange('2026-11-03', '2026-11-28', '2026-11-28')).toEqual({ months: null, days: [['2026-11-03', '2026-12-01']] });
  });

  it('counts today in Paris time', () => {
    expect(parisToday(new Date('2026-11-28T23:30:00Z'))).toBe('2026-11-29');
    expect(parisToday(new Date('2026-06-30T21:59:00Z'))).toBe('2026-06-30');
  });
});
