import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUSY_LEADS_ROWS,
  CHECKPOINT_JOB,
  LIST_INDEX_GROWTH,
  PURGE_AUTH_JOB,
  REBUILD_LIST_INDEX_JOB,
  REINDEX_LEADS_JOB,
  VACUUM_BUSY_LEADS_JOB,
  VACUUM_LEADS_JOB,
  VACUUM_MONTH_STATS_JOB,
  rebuildListIndexIfGrown,
  vacuumLeadsIfBusy,
} from '../../server/services/maintenance';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding } from './leads-support';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('maintenance of the embedded database', () => {
  it('schedules the checkpoints and vacuums PGlite has no background processes for and a weekly reindex, and runs them as jobs', async () => {
    if (server.ctx.db.kind !== 'pglite') return;
    const maintenance = [CHECKPOINT_JOB, REBUILD_LIST_INDEX_JOB, REINDEX_LEADS_JOB, VACUUM_BUSY_LEADS_JOB, VACUUM_LEADS_JOB, VACUUM_MONTH_STATS_JOB].map(
      (q) => q.name,
    );
    const { rows } = await server.ctx.db.query<{ name: string; cron: string; timezone: string }>(
      'SELECT name, cron, timezone FROM pgboss.schedule WHERE name = ANY($1) ORDER BY name',
      [maintenance],
    );
    expect(rows).toEqual([
      { name: CHECKPOINT_JOB.name, cron: '*/5 * * * *', timezone: 'Europe/Paris' },
      { name: REBUILD_LIST_INDEX_JOB.name, cron: '45 3 * * *', timezone: 'Europe/Paris' },
      { name: REINDEX_LEADS_JOB.name, cron: '0 4 * * 0', timezone: 'Europe/Paris' },
      { name: VACUUM_BUSY_LEADS_JOB.name, cron: '5-59/10 * * * *', timezone: 'Europe/Paris' },
      { name: VACUUM_LEADS_JOB.name, cron: '30 3 * * *', timezone: 'Europe/Paris' },
      { name: VACUUM_MONTH_STATS_JOB.name, cron: '*/10 * * * *', timezone: 'Europe/Paris' },
    ]);
    for (const job of [CHECKPOINT_JOB, VACUUM_MONTH_STATS_JOB, VACUUM_BUSY_LEADS_JOB, REINDEX_LEADS_JOB, REBUILD_LIST_INDEX_JOB]) {
      await server.runJob(job);
    }
  });

  it('purges expired sessions and login failures past the throttling window every hour, on any database', async () => {
    const { rows } = await server.ctx.db.query('SELECT cron FROM pgboss.schedule WHERE name = $1', [PURGE_AUTH_JOB.name]);
    expect(rows).toEqual([{ cron: '17 * * * *' }]);
    const db = server.ctx.db;
    const userId = (await db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [ADMIN.email])).rows[0]!.id;
    await db.query(
      `INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ('expired-1', $1, now() - interval '1 minute'), ('live-1', $1, now() + interval '1 hour')`,
      [userId],
    );
    await db.query(`INSERT INTO auth_failures (email, ip, at) VALUES ('old@x.fr', '10.0.0.1', now() - interval '2 days'), ('new@x.fr', '10.0.0.1', now())`);
    await server.runJob(PURGE_AUTH_JOB);
    const sessions = (await db.query<{ token_hash: string }>(`SELECT token_hash FROM sessions WHERE token_hash IN ('expired-1', 'live-1')`)).rows;
    expect(sessions.map((r) => r.token_hash)).toEqual(['live-1']);
    const failures = (await db.query<{ email: string }>(`SELECT email FROM auth_failures WHERE email IN ('old@x.fr', 'new@x.fr')`)).rows;
    expect(failures.map((r) => r.email)).toEqual(['new@x.fr']);
  });

  it('vacuums leads once bulk writes have churned it, as autovacuum would', async () => {
    if (server.ctx.db.kind !== 'pglite') return;
    const db = server.ctx.db;
    await db.exec('VACUUM leads');
    expect(await vacuumLeadsIfBusy(db)).toBe(false);
    const landing = await createLanding(db);
    await db.query('INSERT INTO leads (landing_id) SELECT $1 FROM generate_series(1, $2)', [landing.id, BUSY_LEADS_ROWS]);
    expect(await vacuumLeadsIfBusy(db)).toBe(true);
    expect(await vacuumLeadsIfBusy(db)).toBe(false);
    await db.query('DELETE FROM landings WHERE id = $1', [landing.id]);
  });

  it('still vacuums after bulk writes made before the database was opened again, whose statistics counters restart from zero', async () => {
    if (server.ctx.db.kind !== 'pglite') return;
    const db = server.ctx.db;
    await db.exec('VACUUM leads');
    const landing = await createLanding(db);
    await db.query('INSERT INTO leads (landing_id) SELECT $1 FROM generate_series(1, $2)', [landing.id, BUSY_LEADS_ROWS / 2]);
    await db.query('UPDATE leads SET entry_status = $2 WHERE landing_id = $1', [landing.id, 'archived']);
    // What PGlite's counters show after a reopen: nothing written.
    await db.query('SELECT pg_stat_reset()');
    expect(await vacuumLeadsIfBusy(db)).toBe(true);
    expect((await db.query('SELECT written FROM lead_writes')).rows).toEqual([{ written: 0 }]);
    expect(await vacuumLeadsIfBusy(db)).toBe(false);
    // Small statements (an intake, a delivery) are left to the counters.
    await db.query('INSERT INTO leads (landing_id) SELECT $1 FROM generate_series(1, 999)', [landing.id]);
    expect((await db.query('SELECT written FROM lead_writes')).rows).toEqual([{ written: 0 }]);
    await db.query('DELETE FROM landings WHERE id = $1', [landing.id]);
  });

  it('rebuilds the list index once bulk status changes have grown it past twice its size after its last rebuild, which a vacuum does not undo', async () => {
    const db = server.ctx.db;
    const size = async () => (await db.query<{ n: number }>("SELECT pg_relation_size('leads_list_idx') AS n")).rows[0]!.n;
    const recorded = async () => (await db.query<{ n: number }>('SELECT list_index_bytes AS n FROM lead_writes')).rows[0]!.n;
    const landing = await createLanding(db);
    await db.query('INSERT INTO leads (landing_id) SELECT $1 FROM generate_series(1, 5000)', [landing.id]);
    await db.exec('REINDEX INDEX leads_list_idx');
    // Never measured (a database from before this maintenance): the current size becomes the reference.
    await db.query('UPDATE lead_writes SET list_index_bytes = NULL');
    expect(await rebuildListIndexIfGrown(db)).toBeNull();
    const compact = await size();
    expect(await recorded()).toBe(compact);
    // A day of sales and resets of the same leads, vacuumed as the maintenance does.
    for (let round = 0; round < 8 && (await size()) <= LIST_INDEX_GROWTH * compact; round++) {
      await db.query("UPDATE leads SET entry_status = 'extracted' WHERE landing_id = $1", [landing.id]);
      await db.query("UPDATE leads SET entry_status = 'new' WHERE landing_id = $1", [landing.id]);
      await db.exec('VACUUM leads');
    }
    const grown = await size();
    expect(grown).toBeGreaterThan(LIST_INDEX_GROWTH * compact);
    expect(await rebuildListIndexIfGrown(db)).toEqual({ before: grown, after: await size() });
    expect(await size()).toBeLessThan(grown / 2);
    expect(await recorded()).toBe(await size());
    expect(await rebuildListIndexIfGrown(db)).toBeNull();
    await db.query('DELETE FROM landings WHERE id = $1', [landing.id]);
  });
});
