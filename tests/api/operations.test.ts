import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRUNE_LEAD_ACTIONS_JOB, PURGE_AUTH_JOB } from '../../server/services/maintenance';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json } from './leads-support';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer({ UNDO_RETENTION_DAYS: 7 });
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(() => server.close());

describe('intake rate limit', () => {
  it('is counted in the database, so instances sharing it allow the limit once between them', async () => {
    const landing = await createLanding(server.ctx.db);
    const send = (ip: string) => server.request('POST', `/api/intake/${landing.key}`, { body: { nom: 'x' }, headers: { 'x-forwarded-for': ip } });
    // 59 posts from this address already counted by other instances in the last minute, the first 30 s ago.
    await server.ctx.db.query(
      `INSERT INTO rate_limits (bucket, key, hits, counted)
       SELECT 'intake', '203.0.113.9', array_agg(now() - interval '30 seconds' + i * interval '1 ms' ORDER BY i), true FROM generate_series(1, 59) i`,
    );
    expect((await send('203.0.113.9')).status).toBe(422);
    const refused = await send('203.0.113.9');
    expect(refused.status).toBe(429);
    expect(await json(refused)).toEqual({ error: 'rate_limited', message: 'Trop de requêtes, veuillez réessayer dans une minute' });
    const retry = Number(refused.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(25);
    expect(retry).toBeLessThanOrEqual(31);
    expect((await send('203.0.113.10')).status).toBe(422);
  });

  it('forgets addresses quiet for an hour in the hourly purge', async () => {
    await server.ctx.db.query(`INSERT INTO rate_limits (bucket, key, hits, counted) VALUES ('intake', 'old', ARRAY[now() - interval '2 hours'], true)`);
    await server.runJob(PURGE_AUTH_JOB);
    expect((await server.ctx.db.query(`SELECT 1 FROM rate_limits WHERE key = 'old'`)).rows).toEqual([]);
  });
});

describe('retention of undo records', () => {
  it('deletes lead_actions older than UNDO_RETENTION_DAYS every night; their undo then says not found', async () => {
    const { rows } = await server.ctx.db.query('SELECT cron, timezone FROM pgboss.schedule WHERE name = $1', [PRUNE_LEAD_ACTIONS_JOB.name]);
    expect(rows).toEqual([{ cron: '45 2 * * *', timezone: 'Europe/Paris' }]);
    const landing = await createLanding(server.ctx.db);
    const ids = await insertLeads(server.ctx.db, landing.id, [{}, {}]);
    const action = async (id: number) =>
      (
        await json<{ data: { action_id: number } }>(
          await server.request('POST', '/api/landings/data', { token, body: { entry_status: 'archived', leads: [id] } }),
        )
      ).data.action_id;
    const old = await action(ids[0]);
    const recent = await action(ids[1]);
    await server.ctx.db.query(`UPDATE lead_actions SET created_at = now() - interval '8 days' WHERE id = $1`, [old]);
    await server.ctx.db.query(`UPDATE lead_actions SET created_at = now() - interval '6 days' WHERE id = $1`, [recent]);
    await server.runJob(PRUNE_LEAD_ACTIONS_JOB);
    const kept = (await server.ctx.db.query<{ id: number }>('SELECT id FROM lead_actions WHERE id = ANY($1::int[])', [[old, recent]])).rows;
    expect(kept).toEqual([{ id: recent }]);
    expect((await server.request('POST', `/api/landings/data/undo/${old}`, { token, body: {} })).status).toBe(404);
    expect((await server.request('POST', `/api/landings/data/undo/${recent}`, { token, body: {} })).status).toBe(200);
  });
});

describe('health and readiness', () => {
  it('answer without a token while everything runs', async () => {
    const health = await server.request('GET', '/api/health');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await server.request('GET', '/api/ready');
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toEqual({ status: 'ok', database: true, jobs: true });
  });

  // Last: it stops the job queue of this file's server.
  it('ready says 503 when the job queue is stopped; health still answers', async () => {
    await server.ctx.jobs.stop();
    const ready = await server.request('GET', '/api/ready');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unavailable', database: true, jobs: false });
    expect((await server.request('GET', '/api/health')).status).toBe(200);
  });
});
