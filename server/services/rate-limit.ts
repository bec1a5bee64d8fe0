import type { Queryable } from '../db/connection';
import { AppError } from '../errors';

/**
 * A limit of `max` events per `key` (a client address, an account) in fixed windows of
 * `windowSeconds`. The one way the server counts requests over time (the intake, 'Mot de passe
 * oublié', refused password links, reset mails): counted in the database, so N instances allow
 * the limit once between them, not N times. Sign-in failures have their own rules (auth/throttle.ts).
 */
export interface RateLimit {
  /** Names the counter. */
  bucket: string;
  max: number;
  /** At most an hour: the hourly purge deletes windows that started more than an hour ago. */
  windowSeconds: number;
  message: string;
}

const refused = (limit: RateLimit, retryAfter: number) => new AppError(429, 'rate_limited', limit.message, {}, { 'retry-after': Math.max(1, retryAfter) });

/**
 * Counts one event of `key` in the current window; answers how many that window holds now and
 * the seconds until it ends. One upsert: the row is locked while it counts, so concurrent events
 * (on any instance) never both take the last slot.
 */
export async function hit(db: Queryable, limit: Pick<RateLimit, 'bucket' | 'windowSeconds'>, key: string): Promise<{ count: number; retryAfter: number }> {
  const { rows } = await db.query<{ count: number; retry: number }>(
    `INSERT INTO rate_limits (bucket, key, window_start, count)
     VALUES ($1, $2, to_timestamp(floor(extract(epoch FROM now()) / $3) * $3), 1)
     ON CONFLICT (bucket, key, window_start) DO UPDATE SET count = rate_limits.count + 1
     RETURNING count, ceil($3 - extract(epoch FROM now() - window_start))::int AS retry`,
    [limit.bucket, key, limit.windowSeconds],
  );
  return { count: rows[0]!.count, retryAfter: rows[0]!.retry };
}

/** Counts one request of `key`; beyond `max` in the window, 429 `rate_limited` with Retry-After. */
export async function consume(db: Queryable, limit: RateLimit, key: string): Promise<void> {
  const { count, retryAfter } = await hit(db, limit, key);
  if (count > limit.max) throw refused(limit, retryAfter);
}

/**
 * 429 when `key` has already reached `max` in the window, without counting this request: for
 * limits on failures, each counted with `hit` when it happens.
 */
export async function refuseIfSpent(db: Queryable, limit: RateLimit, key: string): Promise<void> {
  const { rows } = await db.query<{ retry: number }>(
    `SELECT ceil($3 - extract(epoch FROM now() - window_start))::int AS retry FROM rate_limits
      WHERE bucket = $1 AND key = $2 AND window_start = to_timestamp(floor(extract(epoch FROM now()) / $3) * $3) AND count >= $4`,
    [limit.bucket, key, limit.windowSeconds, limit.max],
  );
  if (rows[0]) throw refused(limit, rows[0].retry);
}

/** Windows that ended: they count nothing any more. */
export async function purgeRateLimits(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM rate_limits WHERE window_start < now() - interval '1 hour'`);
  return rowCount;
}
