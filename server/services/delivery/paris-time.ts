import type { Weekday } from '../../../src/api/rules/contract';

/** A moment as the rules read it: the Paris calendar day, weekday and wall-clock minute. */
export interface ParisClock {
  /** YYYY-MM-DD in Europe/Paris. */
  day: string;
  weekday: Weekday;
  /** Minutes since Paris midnight on the wall clock (02:30 happens twice on the October DST day, never in March). */
  minute: number;
  /** 'YYYY-MM-DD HH:mm' */
  label: string;
  /** The windows a rule caps beside the day, as Paris wall-clock starts ('YYYY-MM-DD HH:00'): the
   * hour as on the wall clock (the October 02:00 hour happens twice and is one window), the ISO
   * week from its Monday, the calendar month from its first day. */
  windows: Record<WindowSpan, string>;
}

export const windowSpans = ['hour', 'week', 'month'] as const;
export type WindowSpan = (typeof windowSpans)[number];

const weekdayIndex: Record<Weekday, number> = { monday: 0, tuesday: 1, wednesday: 2, thursday: 3, friday: 4, saturday: 5, sunday: 6 };

/** The Monday of a Paris day's ISO week (calendar arithmetic on the date alone). */
function mondayOf(day: string, weekday: Weekday): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - weekdayIndex[weekday]);
  return d.toISOString().slice(0, 10);
}

const format = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Paris',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  weekday: 'long',
  hourCycle: 'h23',
});

/** The Paris clock of a moment, told by Intl. */
function clockOf(at: Date): ParisClock {
  const p = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
  const day = `${p.year}-${p.month}-${p.day}`;
  const weekday = p.weekday.toLowerCase() as Weekday;
  return {
    day,
    weekday,
    minute: Number(p.hour) * 60 + Number(p.minute),
    label: `${day} ${p.hour}:${p.minute}`,
    windows: { hour: `${day} ${p.hour}:00`, week: `${mondayOf(day, weekday)} 00:00`, month: `${p.year}-${p.month}-01 00:00` },
  };
}

const hourClocks = new Map<number, ParisClock>();
/** UTC hours whose clock is kept: more than a year (a replay reads a year of leads), then they are computed again. */
const KEPT_HOURS = 10_000;

/**
 * The Paris clock of a moment's UTC hour (its first minute), each hour's computed once: Intl is
 * the dearest call of a routing or a replay otherwise (the routing of an import's 100,000 leads
 * asked it twice per lead). Paris is a whole number of hours from UTC and changes offset on a UTC
 * hour, so the minutes of a UTC hour share its day, weekday and windows.
 */
export function hourClock(at: number): ParisClock {
  const hour = Math.floor(at / 3_600_000);
  let clock = hourClocks.get(hour);
  if (clock === undefined) {
    if (hourClocks.size >= KEPT_HOURS) hourClocks.clear();
    clock = clockOf(new Date(hour * 3_600_000));
    hourClocks.set(hour, clock);
  }
  return clock;
}

/** A moment's Paris clock (seconds aside): its UTC hour's, and the minutes since. */
export function parisClock(at: Date): ParisClock {
  const ms = at.getTime();
  const clock = hourClock(ms);
  const minute = Math.floor((ms - Math.floor(ms / 3_600_000) * 3_600_000) / 60_000);
  return minute === 0 ? clock : { ...clock, minute: clock.minute + minute, label: `${clock.label.slice(0, 14)}${String(minute).padStart(2, '0')}` };
}

/** 'HH:mm' → minutes since midnight. */
export const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Whether a wall-clock minute lies in a window, both ends included ('23:59' covers the whole
 * last minute); an end before the start spans midnight (22:00–06:00 = evening and early morning
 * of the same calendar day, each judged with that day's flag and counter).
 */
export const inWindow = (minute: number, start: string, end: string): boolean => inSpan(minute, minuteOf(start), minuteOf(end));

/** inWindow with its ends as minutes since midnight. */
export const inSpan = (minute: number, s: number, e: number): boolean => (s <= e ? minute >= s && minute <= e : minute >= s || minute <= e);
