import type { LiveEvent, LiveEventOf, LiveEventType } from '../../../src/api/events/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/connection';
import { defineQueue } from '../jobs';

/** Who may see an event: every signed-in user, the admins, or its user (`user_id`) and the admins. */
export type Audience = 'all' | 'admins' | 'user';

/** An event as the outbox holds it. */
export interface StoredEvent {
  id: number;
  type: LiveEventType;
  audience: Audience;
  user_id: number | null;
  place: string | null;
  data: unknown;
  created_at: string;
}

export const storedColumns = 'id, type, audience, user_id, place, data, created_at';

/**
 * Writes events of one type in the caller's transaction, in one statement: they exist iff the
 * change commits. Changes made by one SQL statement write theirs with an `INSERT INTO events …
 * SELECT` of their own (leads/status.ts), in the same shape.
 */
export async function writeEvents<T extends LiveEventType>(
  q: Queryable,
  type: T,
  data: Array<LiveEventOf<T>['data']>,
  audience: Audience,
  userId: number | null = null,
): Promise<void> {
  if (data.length === 0) return;
  await q.query('INSERT INTO events (type, audience, user_id, data) SELECT $1, $2, $3, d FROM unnest($4::jsonb[]) AS d', [
    type,
    audience,
    userId,
    data.map((d) => JSON.stringify(d)),
  ]);
}

/** The event as a stream sends it. */
export function toLiveEvent(e: StoredEvent): LiveEvent {
  return { id: e.id, at: new Date(e.created_at).toISOString(), type: e.type, data: e.data } as LiveEvent;
}

/** Whether a user may see an event; a presence event goes only to the streams at its place. */
export function maySee(user: { id: number; admin: boolean }, place: string | undefined, e: StoredEvent): boolean {
  if (e.place !== null) return e.place === place;
  if (e.audience === 'all') return true;
  return user.admin || (e.audience === 'user' && e.user_id === user.id);
}

const BATCH = 1000;

/**
 * The outbox read in id order without ever skipping an id (docs/architecture.md, 'Live events').
 * Ids come from a sequence, so a transaction may take id 5, another id 6 and commit first: a
 * reader of `id > last` would pass 5 for good. So each poll reads the sequence's top L (every
 * transaction holding an id ≤ L got its xid before: migration 111), then takes an xid p of its own,
 * necessarily larger than theirs. Once a snapshot's xmin passes p, every one of them has ended and
 * the events up to L are all there to read: L is settled. (A snapshot's xmax is no such bound: a
 * running xid above the last completed one is in no snapshot's list.) On PGlite, one connection,
 * no transaction runs between two statements of the poller: L is settled at once.
 */
export class OutboxReader {
  /** Tops read but not yet settled, each with the xid every transaction holding an id up to it is below. */
  private pending: Array<{ top: number; xid: bigint }> = [];
  /** Every event up to it has been read; undefined until the first settled top. */
  cursor: number | undefined;

  /** The events settled since the last call, in id order. */
  async poll(db: Queryable): Promise<StoredEvent[]> {
    const top = (await db.query<{ top: number }>('SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS top FROM events_id_seq')).rows[0]!.top;
    // Nothing written since every id up to the cursor was settled: one statement, no read.
    if (top === this.cursor && this.pending.length === 0) return [];
    if (db.parallel) this.pending.push({ top, xid: BigInt((await db.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid')).rows[0]!.xid) });
    const from = this.cursor ?? top;
    const upTo = Math.max(top, ...this.pending.map((p) => p.top));
    const { rows } = await db.query<{ xmin: string; events: StoredEvent[] }>(
      `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin,
              (SELECT coalesce(json_agg(e ORDER BY e.id), '[]') FROM (SELECT ${storedColumns} FROM events WHERE id > $1 AND id <= $2 ORDER BY id LIMIT $3) e) AS events`,
      [from, upTo, BATCH],
    );
    const { xmin, events } = rows[0]!;
    // Tops and xids grow together: the settled ones are a prefix.
    let settled = db.parallel ? undefined : top;
    while (this.pending.length && this.pending[0]!.xid < BigInt(xmin)) settled = this.pending.shift()!.top;
    // A long transaction keeps the list growing; dropping middle entries only delays their tops.
    if (this.pending.length > 64) this.pending.splice(1, this.pending.length - 32);
    if (settled === undefined) return [];
    if (this.cursor === undefined) {
      this.cursor = settled;
      return [];
    }
    const read = events.filter((e) => e.id <= settled);
    // A full batch may stop short of the settled top: the next poll reads on from its last id.
    this.cursor = read.length === BATCH ? read.at(-1)!.id : Math.max(this.cursor, settled);
    if (read.length === BATCH) this.pending.unshift({ top: settled, xid: 0n });
    return read;
  }
}

/** The events after `after` up to `upTo` (settled) that this user may see, in id order: a resumed stream's replay. */
export async function readSince(
  db: Queryable,
  user: { id: number; admin: boolean },
  place: string | undefined,
  after: number,
  upTo: number,
): Promise<StoredEvent[]> {
  const { rows } = await db.query<StoredEvent>(
    `SELECT ${storedColumns} FROM events
      WHERE id > $1 AND id <= $2
        AND CASE WHEN place IS NOT NULL THEN place = $3
                 WHEN audience = 'all' THEN true
                 ELSE $4 OR (audience = 'user' AND user_id = $5) END
      ORDER BY id LIMIT $6`,
    [after, upTo, place ?? null, user.admin, user.id, BATCH],
  );
  return rows;
}

/** Whether events after `after` were purged: the stream cannot replay them. */
export async function purgedSince(db: Queryable, after: number): Promise<boolean> {
  const { rows } = await db.query<{ through: number }>('SELECT through FROM events_purged');
  return after < rows[0]!.through;
}

/** Deletes the events older than `hours`, remembering the largest id deleted; answers how many. */
export async function purgeEvents(db: Queryable, hours: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH gone AS (DELETE FROM events WHERE created_at < now() - make_interval(secs => $1 * 3600) RETURNING id),
          mark AS (UPDATE events_purged SET through = greatest(through, (SELECT max(id) FROM gone)) WHERE EXISTS (SELECT 1 FROM gone))
     SELECT count(*)::int AS n FROM gone`,
    [hours],
  );
  return rows[0]!.n;
}

export const PURGE_EVENTS_JOB = defineQueue('events.purge');

/** Every ten minutes, on one instance: events past the retention go (a stream resuming before them reloads). */
export function registerEventJobs(ctx: AppContext): void {
  ctx.jobs.register(PURGE_EVENTS_JOB, () => purgeEvents(ctx.db, ctx.config.EVENTS_RETENTION_HOURS).then(() => undefined), { cron: '*/10 * * * *' });
}
