import type { Queryable } from './connection';

/** Keys of the advisory locks instances take while starting, in one place so they never collide. */
export const STARTUP_LOCKS = { migrations: 7_260_019, jobQueues: 7_260_020 } as const;

/**
 * Waits for, then holds, a startup lock until the end of `q`'s transaction: instances started
 * together against one database take turns.
 */
export async function takeStartupLock(q: Queryable, key: number): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock($1)', [key]);
}
