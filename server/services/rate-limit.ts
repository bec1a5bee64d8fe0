import type { Queryable } from '../db/connection';
import { AppError } from '../errors';

/**
 * A limit of `max` events per `key` (a client address, an account) in any `windowSeconds`: a
 * sliding window, so no burst across the end of a clock-aligned one. The one way the server
 * counts requests over time (the intake, 'Mot de passe oublié', refused password links, reset
 * mails): counted in the database, so N instances allow the limit once between them, not N
 * times. Sign-in failures have their own rules (auth/throttle.ts).
 */
export interface RateLimit {
  /** Names the counter. */
  bucket: string;
  max: number;
  /** At most an hour: the hourly purge deletes rows whose latest event is older. */
  windowSeconds: number;
  message: string;
}

const refused = (limit: RateLimit, retryAfter: number) => new AppError(429, 'rate_limited', limit.message, {}, { 'retry-after': Math.max(1, retryAfter) });

/**
 * Seconds until the window `w` (ascending, as `rate_limit_recent` answers) holds fewer than $4
 * events again: until its (count - max + 1)th oldest leaves it.
 */
const retrySql = (w: string) => `ceil(extract(epoch FROM ${w}[greatest(1, cardinality(${w}) - $4 + 1)] + make_interval(secs => $3) - now()))::int`;

/**
 * One upsert on the key's row (locked while it counts, so concurrent events on any instance never
 * both take the last slot), in `rate_limit_record` (migration 126, whose plan the session keeps):
 * drops the events that left the window and records this one — always (`always`, for failures),
 * or only while the window holds fewer than max (a refused request does not count). Answers
 * whether it was recorded, how many events the window holds now and the seconds until one more
 * would be under max.
 */
async function record(db: Queryable, limit: Pick<RateLimit, 'bucket' | 'max' | 'windowSeconds'>, key: string, always: boolean) {
  const { rows } = await db.query<{ counted: boolean; count: number; retry: number }>(
    'SELECT recorded AS counted, held AS count, wait AS retry FROM rate_limit_record($1, $2, $3, $4, $5)',
    [limit.bucket, key, limit.windowSeconds, limit.max, always],
  );
  return rows[0]!;
}

/** Counts one failure of `key`; answers how many the window holds now (at most max + 1). */
export async function hit(db: Queryable, limit: Pick<RateLimit, 'bucket' | 'max' | 'windowSeconds'>, key: string): Promise<{ count: number }> {
  return { count: (await record(db, limit, key, true)).count };
}

/** Counts one request of `key`; when the last windowSeconds already hold max, 429 `rate_limited` with Retry-After, not counted. */
export async function consume(db: Queryable, limit: RateLimit, key: string): Promise<void> {
  const { counted, retry } = await record(db, limit, key, false);
  if (!counted) throw refused(limit, retry);
}

/**
 * 429 when `key` has already reached `max` in the window, without counting this request: for
 * limits on failures, each counted with `hit` when it happens.
 */
export async function refuseIfSpent(db: Queryable, limit: RateLimit, key: string): Promise<void> {
  const { rows } = await db.query<{ retry: number }>(
    `SELECT ${retrySql('w')} AS retry
       FROM (SELECT rate_limit_recent(hits, $3, $4 + 1) AS w FROM rate_limits WHERE bucket = $1 AND key = $2) r
      WHERE cardinality(w) >= $4`,
    [limit.bucket, key, limit.windowSeconds, limit.max],
  );
  if (rows[0]) throw refused(limit, rows[0].retry);
}

/** Rows whose latest event is more than an hour old: they count nothing any more. */
export async function purgeRateLimits(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM rate_limits WHERE hits[cardinality(hits)] < now() - interval '1 hour' OR cardinality(hits) = 0`);
  return rowCount;
}
