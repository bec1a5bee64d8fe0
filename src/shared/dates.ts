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
