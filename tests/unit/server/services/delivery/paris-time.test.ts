import { describe, expect, it } from 'vitest';
import { parisClock } from '../../../../../server/services/delivery/paris-time';

// parisClock keeps each UTC hour's clock and adds the minutes: here every minute around both
// daylight-saving changes and a month's turn, seconds included, against Intl asked afresh.

const wall = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Paris',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  weekday: 'long',
  hourCycle: 'h23',
});

function told(at: Date) {
  const p = Object.fromEntries(wall.formatToParts(at).map((part) => [part.type, part.value]));
  const day = `${p.year}-${p.month}-${p.day}`;
  return {
    day,
    weekday: p.weekday!.toLowerCase(),
    minute: Number(p.hour) * 60 + Number(p.minute),
    label: `${day} ${p.hour}:${p.minute}`,
    hour: `${day} ${p.hour}:00`,
  };
}

describe('parisClock', () => {
  it('tells every minute as Intl does, across the March and October changes and a month’s turn', () => {
    for (const start of ['2026-03-28T20:00:00Z', '2026-10-24T20:00:00Z', '2026-11-30T20:00:00Z'])
      for (let m = 0; m < 12 * 60; m++) {
        for (const seconds of [0, 17_000, 59_999]) {
          const at = new Date(Date.parse(start) + m * 60_000 + seconds);
          const clock = parisClock(at);
          const expected = told(at);
          expect({ day: clock.day, weekday: clock.weekday, minute: clock.minute, label: clock.label, hour: clock.windows.hour }).toEqual(expected);
          expect(clock.windows.month).toBe(`${expected.day.slice(0, 7)}-01 00:00`);
        }
      }
  });

  it('tells the October hour that happens twice as one wall-clock hour, and the week from its Monday', () => {
    const summer = parisClock(new Date('2026-10-25T00:30:00Z'));
    const winter = parisClock(new Date('2026-10-25T01:30:00Z'));
    expect([summer.label, winter.label]).toEqual(['2026-10-25 02:30', '2026-10-25 02:30']);
    expect(summer.windows).toEqual(winter.windows);
    expect(summer.windows.week).toBe('2026-10-19 00:00');
    expect(parisClock(new Date('2026-03-29T01:30:00Z')).label).toBe('2026-03-29 03:30');
  });
});
