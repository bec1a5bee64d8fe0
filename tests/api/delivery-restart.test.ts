import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../server/db/connection';
import type { Config } from '../../server/config';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads } from './leads-support';
import { createCustomer, createRule } from './lives-support';
import { until } from '../support/until';

// One database and one data folder across three boots: PGlite on disk, or the same PostgreSQL database.
const dataDir = mkdtempSync(join(tmpdir(), 'lives-restart-'));
let persisted: Partial<Config> = { dataDir, pgliteDir: process.env.TEST_DATABASE_URL ? undefined : join(dataDir, 'pglite') };
let server: TestServer | undefined;

const boot = async () => {
  server = await startServer(persisted);
  persisted = { ...persisted, DATABASE_URL: server.ctx.config.DATABASE_URL };
  return server;
};
const stop = async () => {
  await server?.close();
  server = undefined;
};
afterAll(async () => {
  await stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const outbox = () => (existsSync(join(dataDir, 'outbox')) ? readdirSync(join(dataDir, 'outbox')).length : 0);

describe('restarts', () => {
  it('offers the leads that arrived while no server was up, if their rule is open today; a restart never delivers twice', async () => {
    let s = await boot();
    const token = await s.login(ADMIN.email, ADMIN.password);
    const landing = await createLanding(s.ctx.db);
    const closed = await createLanding(s.ctx.db);
    const customer = await createCustomer(s, token);
    const rule = await createRule(s, token, { customer_id: customer, landings: [landing.id], leads_number: 10 });
    // A rule of the other landing whose window opens only in two minutes.
    const now = new Date(Date.now() + 120_000).toLocaleTimeString('fr-FR', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' });
    const later = new Date(Date.now() + 180_000).toLocaleTimeString('fr-FR', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' });
    await createRule(s, token, { customer_id: customer, landings: [closed.id], hours: { start: now, end: later } });
    await stop();

    // Meanwhile another writer (an instance that died before offering them) stored new leads.
    const db = await openDb({ databaseUrl: persisted.DATABASE_URL, pgliteDir: persisted.pgliteDir });
    const fresh = await insertLeads(db, landing.id, [{ code_postal: '30900' }, { code_postal: '34000' }, { code_postal: '13001' }]);
    const yesterday = await insertLeads(db, landing.id, [{ code_postal: '30900', created_at: new Date(Date.now() - 36 * 3600_000).toISOString() }]);
    const outOfHours = await insertLeads(db, closed.id, [{ code_postal: '30900' }]);
    await db.close();

    s = await boot();
    const status = async (ids: number[]) =>
      (await s.ctx.db.query<{ entry_status: string }>('SELECT entry_status FROM leads WHERE id = ANY($1::bigint[]) ORDER BY id', [ids])).rows.map(
        (r) => r.entry_status,
      );
    await until(async () => (await status(fresh)).every((st) => st === 'extracted'), 30_000, 'the catch-up');
    await until(async () => outbox() === 3, 30_000, 'three mails');
    expect(await status(yesterday)).toEqual(['new']);
    await until(
      async () => (await s.ctx.db.query('SELECT 1 FROM lead_routings WHERE lead_id = $1', [outOfHours[0]])).rows.length === 1,
      30_000,
      'the closed rule judged',
    );
    expect(await status(outOfHours)).toEqual(['new']);
    const countOf = async () => (await s.ctx.db.query<{ count: number }>('SELECT count FROM reports WHERE rule_id = $1', [rule.id])).rows[0].count;
    expect(await countOf()).toBe(3);
    const sweeps = async () =>
      (await s.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'live.sweep' AND state = 'completed'`)).rows[0].n;
    await until(async () => (await sweeps()) >= 1, 30_000, 'the second start-up sweep');
    const before = await sweeps();
    await stop();

    s = await boot();
    // The start-up sweep has run once more: nothing new to deliver, nothing sent again.
    await until(async () => (await sweeps()) > before, 30_000, 'the third start-up sweep');
    expect(await countOf()).toBe(3);
    expect(outbox()).toBe(3);
    const { rows } = await s.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM deliveries WHERE status = 'sent'`);
    expect(rows[0].n).toBe(3);
  });
});
