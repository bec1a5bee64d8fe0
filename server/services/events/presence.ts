import type { Db, Queryable } from '../../db/connection';

/**
 * Presence (issue 28): who is at a place (`landing:3/new`), across instances. A stream that names
 * a place keeps a `presence` row, refreshed by its heartbeat; whoever comes or goes writes, in the
 * same transaction, a `presence` event with everyone now there, which the outbox carries to every
 * instance like any other event. A place's changes take its advisory lock, so each event counts
 * the one before it. The rows of a server that died expire and are swept by the next heartbeat
 * of any instance.
 */

/** Writes a presence event per place: the users there now (each once, by name). */
async function tellPlaces(q: Queryable, places: string[]): Promise<void> {
  await q.query(
    `INSERT INTO events (type, audience, place, data)
     SELECT 'presence', 'all', p.place, jsonb_build_object('place', p.place, 'users', coalesce((
              SELECT jsonb_agg(jsonb_build_object('id', u.id, 'name', u.name, 'initials',
                       upper(left(split_part(btrim(u.name), ' ', 1), 1) || left(split_part(btrim(u.name), ' ', 2), 1))) ORDER BY u.name, u.id)
                FROM users u WHERE u.id IN (SELECT user_id FROM presence WHERE place = p.place)), '[]'))
       FROM unnest($1::text[]) AS p(place)`,
    [places],
  );
}

async function lockPlaces(q: Queryable, places: string[]): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock(7340041, hashtext(p)) FROM unnest($1::text[]) AS p ORDER BY p', [[...new Set(places)].sort()]);
}

export async function enterPlace(db: Db, stream: string, userId: number, place: string, ttlMs: number): Promise<void> {
  await db.tx(async (q) => {
    await lockPlaces(q, [place]);
    await q.query('INSERT INTO presence (stream, user_id, place, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))', [
      stream,
      userId,
      place,
      ttlMs / 1000,
    ]);
    await tellPlaces(q, [place]);
  });
}

export async function leavePlace(db: Db, stream: string, place: string): Promise<void> {
  await db.tx(async (q) => {
    await lockPlaces(q, [place]);
    const { rowCount } = await q.query('DELETE FROM presence WHERE stream = $1', [stream]);
    if (rowCount) await tellPlaces(q, [place]);
  });
}

/** The heartbeat: these streams are still there. */
export async function keepPlaces(db: Queryable, streams: string[], ttlMs: number): Promise<void> {
  if (streams.length === 0) return;
  await db.query('UPDATE presence SET expires_at = now() + make_interval(secs => $2) WHERE stream = ANY($1::uuid[])', [streams, ttlMs / 1000]);
}

/** Removes the rows whose stream stopped refreshing them (its server died) and tells their places. */
export async function sweepPlaces(db: Db): Promise<void> {
  const { rows } = await db.query<{ place: string }>('SELECT DISTINCT place FROM presence WHERE expires_at < now()');
  if (rows.length === 0) return;
  const places = rows.map((r) => r.place);
  await db.tx(async (q) => {
    await lockPlaces(q, places);
    const gone = await q.query<{ place: string }>('DELETE FROM presence WHERE expires_at < now() AND place = ANY($1::text[]) RETURNING place', [places]);
    if (gone.rowCount) await tellPlaces(q, [...new Set(gone.rows.map((r) => r.place))]);
  });
}
