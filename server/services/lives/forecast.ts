/**
 * Cap forecast (issue 27): when each rule is expected to reach today's cap, 'HH:mm' Paris or null.
 */
import type { Queryable } from '../../db/connection';
import { inWindow, parisClock } from '../delivery/paris-time';

/** How many past same weekdays draw the arrival curve. */
const WEEKS = 4;

/**
 * The minute of the day a rule is expected to fill its cap, or null.
 *
 * The curve: `arrivals` are the minutes of day (sorted) at which leads reached the rule's
 * landings, within its hours, on the same weekday over the last 4 weeks, pooled. F(t), the share
 * of them that arrived by minute t, is the shape of such a day. Today's pace: the rule took
 * `count` leads by `now`, where F says a share F(now) of the day's arrivals comes; at that pace
 * the rule takes count / F(now) leads over a whole day. It reaches `cap` when
 *
 *     F(t) = F(now) · cap / count
 *
 * and the answer is the minute of the arrival that brings F to that share (one after now: the
 * share passes F(now) as the cap passes the count).
 * Null when the cap is reached already, when there is no pace to read (nothing taken yet, or no
 * past arrival by this time of day), or when that share passes 1: not expected to fill today.
 */
export function expectedFullMinute(input: { count: number; cap: number; now: number; arrivals: readonly number[] }): number | null {
  const { count, cap, now, arrivals } = input;
  if (count <= 0 || count >= cap || arrivals.length === 0) return null;
  const before = arrivals.filter((m) => m <= now).length;
  if (before === 0) return null;
  const needed = Math.ceil((before * cap) / count - 1e-9);
  if (needed > arrivals.length) return null;
  return arrivals[needed - 1];
}

const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

interface ForecastRule {
  id: number;
  landing_ids: number[];
  hour_start: string;
  hour_end: string;
  leads_number: number;
  count: number;
  open: boolean;
}

/**
 * `expected_full_at` of the rules `ruleIds`, by id. Rules that are paused, closed today, full or
 * idle get null without reading the past; the others share one read of the past arrivals on
 * their landings (minutes of day, counted per landing).
 */
export async function expectedFullAt(db: Queryable, ruleIds: readonly number[], at = new Date()): Promise<Map<number, string | null>> {
  const clock = parisClock(at);
  const out = new Map<number, string | null>(ruleIds.map((id) => [id, null]));
  const { rows } = await db.query<ForecastRule>(
    `SELECT r.id, r.landing_ids, r.hour_start, r.hour_end, r.leads_number, COALESCE(rep.count, 0) AS count,
            (r.active AND c.active AND r.${clock.weekday}) AS open
       FROM rules r JOIN customers c ON c.id = r.customer_id
       LEFT JOIN reports rep ON rep.rule_id = r.id AND rep.date = $2::date
      WHERE r.id = ANY($1::int[])`,
    [ruleIds, clock.day],
  );
  const live = rows.filter((r) => r.open && r.count > 0 && r.count < r.leads_number);
  if (live.length === 0) return out;

  const days = Array.from({ length: WEEKS }, (_, i) => shiftDay(clock.day, -7 * (i + 1)));
  const past = await db.query<{ landing_id: number; minute: number; n: number }>(
    `SELECT landing_id, (extract(hour FROM local) * 60 + extract(minute FROM local))::int AS minute, count(*)::int AS n
       FROM (SELECT landing_id, created_at AT TIME ZONE 'Europe/Paris' AS local FROM leads
              WHERE landing_id = ANY($1::int[]) AND created_at >= ($2::date::timestamp AT TIME ZONE 'Europe/Paris')
                AND (created_at AT TIME ZONE 'Europe/Paris')::date = ANY($3::date[])) l
      GROUP BY 1, 2`,
    [[...new Set(live.flatMap((r) => r.landing_ids))], days[WEEKS - 1], days],
  );
  for (const rule of live) {
    const arrivals = past.rows
      .filter((p) => rule.landing_ids.includes(p.landing_id) && inWindow(p.minute, rule.hour_start, rule.hour_end))
      .flatMap((p) => Array<number>(p.n).fill(p.minute))
      .sort((a, b) => a - b);
    const minute = expectedFullMinute({ count: rule.count, cap: rule.leads_number, now: clock.minute, arrivals });
    out.set(rule.id, minute === null ? null : hhmm(minute));
  }
  return out;
}

/** 'YYYY-MM-DD' moved by `days` calendar days. */
function shiftDay(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
