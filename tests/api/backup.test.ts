import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseCounts } from '../../server/db/backup';
import { ADMIN, migratedPgliteFolder, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json } from './leads-support';
import { createCustomer } from './lives-support';
import { until } from '../support/until';

// A backup taken while the server runs and writes happen, restored into a fresh folder (or
// database), gives a server with the same counts: leads per status, exports, customers. The
// writes are numbered transactions (one lead archived + one customer 'w-<n>'), so the copy must
// hold exactly the first k of them, whole.

const run = promisify(execFile);
const tsx = resolve('node_modules/.bin/tsx');
const pgBin = '/usr/lib/postgresql/15/bin';
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** Runs `npm run backup` / `npm run restore` as an operator would, with DATA_DIR as given. */
const command = (script: 'backup' | 'restore', file: string, dataDir: string) =>
  run(tsx, [`server/db/${script}-cli.ts`, file], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' } }).then(
    (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout, err: e.stderr }),
  );

const servers: TestServer[] = [];
const folders: string[] = [];
/** A temporary folder, removed after the tests. */
const folder = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.push(dir);
  return dir;
};
afterAll(async () => {
  for (const s of servers) await s.close().catch(() => undefined);
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** Leads of several statuses, customers and two exports (with their files). */
async function fill(server: TestServer) {
  const token = await server.login(ADMIN.email, ADMIN.password);
  const landing = await createLanding(server.ctx.db, { name: 'Sauvegarde' });
  const statuses = ['new', 'new', 'new', 'archived', 'trashed', 'extracted'];
  const ids = await insertLeads(
    server.ctx.db,
    landing.id,
    Array.from({ length: 600 }, (_, i) => ({
      nom: `Lead ${i}`,
      telephone: `06${String(10_000_000 + i)}`,
      code_postal: '30000',
      status: statuses[i % statuses.length],
    })),
  );
  for (let i = 0; i < 3; i++) await createCustomer(server, token);
  for (const part of [ids.slice(0, 6), ids.slice(6, 12)]) {
    const res = await server.request('POST', `/api/landings/data/${landing.id}/export`, {
      token,
      body: { bookType: 'csv', filename: 'vente', leads: part.filter((_, i) => i % 6 < 3), for_customer: 'Client', rapport: null },
    });
    expect(res.status).toBe(200);
  }
  return { token, landing };
}

/** Numbered writes until `stop()`: each one transaction that archives a new lead and adds customer w-<n>. */
function writer(server: TestServer) {
  let n = 0;
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      n++;
      const k = n;
      await server.ctx.db.tx(async (q) => {
        await q.query("UPDATE leads SET entry_status = 'archived' WHERE id = (SELECT min(id) FROM leads WHERE entry_status = 'new')");
        await q.query('INSERT INTO customers (name, email) VALUES ($1, $2)', [`w-${k}`, `w-${k}@example.fr`]);
      });
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  return {
    get count() {
      return n;
    },
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

/** The writes a copy holds: w-1 … w-k with no gap, and as many leads archived by them. */
async function writesHeld(db: TestServer['ctx']['db']) {
  const { rows } = await db.query<{ name: string }>("SELECT name FROM customers WHERE name LIKE 'w-%'");
  const numbers = rows.map((r) => Number(r.name.slice(2))).sort((a, b) => a - b);
  expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  return numbers.length;
}

describe.skipIf(onPostgres)('backup and restore of the embedded database', () => {
  it('backs up while the server writes, restores into a fresh folder, and the restored server has the same counts', async () => {
    const dataDir = folder('lc-backup-');
    await migratedPgliteFolder(join(dataDir, 'pglite'));
    const lines: string[] = [];
    const server = await startServer({ pgliteDir: join(dataDir, 'pglite'), LOG_LEVEL: 'info' }, { logStream: { write: (line: string) => lines.push(line) } });
    servers.push(server);
    const { token, landing } = await fill(server);
    const before = await databaseCounts(server.ctx.db);

    const writes = writer(server);
    await new Promise((r) => setTimeout(r, 100));
    const file = join(dataDir, 'sauvegarde.tar.gz');
    // Pages keep being answered while the backup is made.
    const pages = Promise.all(
      Array.from({ length: 5 }, () => server.request('GET', `/api/landings/data/${landing.id}?_limit=50`, { token }).then((r) => r.status)),
    );
    const backup = await command('backup', file, dataDir);
    await new Promise((r) => setTimeout(r, 100));
    await writes.stop();
    expect(backup.err).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.out).toMatch(/Sauvegarde écrite .* par le serveur en marche/);
    expect(await pages).toEqual([200, 200, 200, 200, 200]);
    expect(writes.count).toBeGreaterThan(5);
    // The server logs the backup once its copy of the folder is removed.
    const logged = () =>
      lines.map((l) => JSON.parse(l) as { msg: string; bytes?: number; frozenMs?: number; ms?: number }).find((l) => l.msg === 'backup written');
    await until(async () => logged() !== undefined, 10_000, 'backup written');
    expect(readdirSync(dataDir).filter((f) => f.includes('.backup-'))).toEqual([]);
    const written = logged();
    expect(written?.bytes).toBeGreaterThan(100_000);
    console.log(`backup of the test database: ${written?.bytes} bytes in ${written?.ms} ms, statements held ${written?.frozenMs} ms`);

    // Restoring into the running server's folder is refused: the folder is in use.
    const busy = await command('restore', file, dataDir);
    expect(busy.code).toBe(1);
    expect(busy.err).toMatch(/déjà ouverte par le processus/);

    const fresh = folder('lc-restore-');
    const restore = await command('restore', file, fresh);
    expect(restore.err).toBe('');
    expect(restore.out).toMatch(/Base restaurée/);

    const restored = await startServer({ pgliteDir: join(fresh, 'pglite') });
    servers.push(restored);
    const held = await writesHeld(restored.ctx.db);
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThan(writes.count);
    // Exactly the state after write k: what was there before, k leads moved from new to archived, k customers more.
    expect(await databaseCounts(restored.ctx.db)).toEqual({
      leads: { ...before.leads, new: before.leads.new - held, archived: before.leads.archived + held },
      exports: before.exports,
      customers: before.customers + held,
    });
    // The restored server serves them: sign-in, lists, counts.
    const restoredToken = await restored.login(ADMIN.email, ADMIN.password);
    const count = await json<{ total: number }>(
      await restored.request('GET', `/api/landings/data/${landing.id}/count?entry_status=archived`, { token: restoredToken }),
    );
    expect(count.total).toBe(before.leads.archived + held);
    expect(restore.out).toContain(`Exports : ${before.exports}, clients : ${before.customers + held}`);
  }, 120_000);

  it('backs up a stopped server by opening its folder, and keeps the database it replaces', async () => {
    const dataDir = folder('lc-backup-');
    await migratedPgliteFolder(join(dataDir, 'pglite'));
    const server = await startServer({ pgliteDir: join(dataDir, 'pglite') });
    await fill(server);
    const counts = await databaseCounts(server.ctx.db);
    await server.close();

    const file = join(dataDir, 'arrete.tar.gz');
    const backup = await command('backup', file, dataDir);
    expect(backup.out).toMatch(/serveur arrêté/);

    const garbage = await command('restore', join(dataDir, 'pglite.lock'), dataDir);
    expect(garbage.code).toBe(1);
    expect(garbage.err).toMatch(/Restauration impossible/);

    const restore = await command('restore', file, dataDir);
    expect(restore.code).toBe(0);
    expect(restore.out).toMatch(/L'ancienne base est gardée dans .*pglite\.before-restore-/);
    expect(readdirSync(dataDir).some((f) => f.startsWith('pglite.before-restore-'))).toBe(true);
    const again = await startServer({ pgliteDir: join(dataDir, 'pglite') });
    servers.push(again);
    expect(await databaseCounts(again.ctx.db)).toEqual(counts);
  }, 120_000);
});

describe.skipIf(!onPostgres || !existsSync(`${pgBin}/pg_dump`))('backup and restore on PostgreSQL (pg_dump, pg_restore)', () => {
  it('dumps while the server writes, restores into a fresh database, and the restored server has the same counts', async () => {
    const server = await startServer();
    servers.push(server);
    const { landing } = await fill(server);
    const before = await databaseCounts(server.ctx.db);
    const url = server.ctx.config.DATABASE_URL!;
    const file = join(folder('lc-dump-'), 'leads.dump');

    const writes = writer(server);
    await new Promise((r) => setTimeout(r, 100));
    await run(`${pgBin}/pg_dump`, ['--format=custom', `--file=${file}`, url]);
    await writes.stop();

    const freshName = `lc_restore_${Date.now()}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${freshName}`);
    await admin.end();
    const freshUrl = new URL(url);
    freshUrl.pathname = `/${freshName}`;
    await run(`${pgBin}/pg_restore`, ['--no-owner', `--dbname=${freshUrl}`, file]);

    const restored = await startServer({ DATABASE_URL: freshUrl.toString() });
    servers.push(restored);
    const held = await writesHeld(restored.ctx.db);
    expect(await databaseCounts(restored.ctx.db)).toEqual({
      leads: { ...before.leads, new: before.leads.new - held, archived: before.leads.archived + held },
      exports: before.exports,
      customers: before.customers + held,
    });
    const token = await restored.login(ADMIN.email, ADMIN.password);
    expect((await restored.request('GET', `/api/landings/data/${landing.id}?_limit=10`, { token })).status).toBe(200);
  }, 120_000);
});
