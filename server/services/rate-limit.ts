import type { Queryable } from '../db/connection';
import { AppError } from '../errors';

export interface RateLimit {
  /** Names the counter (one per protected route). */
  bucket: string;
  max: number;
  windowSeconds: number;
  message: string;
}

/**
 * Counts one request of `key` (a client address) in the current fixed window, in the database so
 * that every instance counts together; beyond `max`, 429 `rate_limited`, after `onRefused` was
 * told the seconds until the window ends (Retry-After). One upsert per request: the row is locked
 * while it counts, so concurrent requests never both take the last slot.
 */
export async function consume(db: Queryable, limit: RateLimit, key: string, onRefused: (retryAfter: number) => void): Promise<void> {
  const { rows } = await db.query<{ count: number; retry: number }>(
    `INSERT INTO rate_limits (bucket, key, window_start, count)
     VALUES ($1, $2, to_timestamp(floor(extract(epoch FROM now()) / $3) * $3), 1)
     ON CONFLICT (bucket, key, window_start) DO UPDATE SET count = rate_limits.count + 1
     RETURNING count, ceil($3 - extract(epoch FROM now() - window_start))::int AS retry`,
    [limit.bucket, key, limit.windowSeconds],
  );
  const { count, retry } = rows[0];
  if (count <= limit.max) return;
  onRefused(Math.max(1, retry));
  throw new AppError(429, 'rate_limited', limit.message);
}

/** Windows that ended: they count nothing any more. */
export async function purgeRateLimits(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM rate_limits WHERE window_start < now() - interval '1 hour'`);
  return rowCount;
}
