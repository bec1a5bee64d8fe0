/** 'YYYY-MM-DD' of a date, in local time (what the date pickers show). */
export function isoDay(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** The default range of the statistics tabs: the last 90 days, today included. */
export function last90Days(today = new Date()): [string, string] {
  const start = new Date(today);
  start.setDate(start.getDate() - 90);
  return [isoDay(start), isoDay(today)];
}

const parisMonthFormat = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' });

/** The Paris calendar month of a moment, 'YYYY-MM' (statements and budgets count Paris months). */
export const parisMonth = (at = new Date()): string => parisMonthFormat.format(at).slice(0, 7);

/** 'YYYY-MM' moved by `step` months: shiftMonth('2026-01', -1) → '2025-12'. */
export function shiftMonth(month: string, step: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + step;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}
