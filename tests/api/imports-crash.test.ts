import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../server/db/connection';
import { migrate } from '../../server/db/migrate';
import { formColumns } from './leads-support';

const root = resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(join(tmpdir(), 'lead-console-crash-'));
const admin = { email: 'crash@test.local', password: 'crash-password-1' };
const ROWS = 150_000;
let child: ChildProcess | undefined;

/** The real server as a child process on a PGlite folder; resolves with its base URL. */
function startChild(): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SEED_DEMO: '0', LOG_LEVEL: 'error', ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  return new Promise((ok, fail) => {
    let out = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /(http:\/\/[\w.:[\]-]+)/.exec(out);
      if (m) ok({ url: m[1], proc });
    });
    proc.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.on('exit', (code) => fail(new Error(`server exited (${code}): ${out}`)));
  });
}

async function login(url: string) {
  const res = await fetch(`${url}/api/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) });
  return ((await res.json()) as { token: string }).token;
}

async function total(url: string, token: string, landingId: number, status: string) {
  const res = await fetch(`${url}/api/landings/data/${landingId}?_limit=0&entry_status=${status}`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { total: number }).total;
}

afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('server killed during an import', () => {
  it('keeps none or all of the import after a restart, never part of it', async () => {
    const db = await openPglite(join(dataDir, 'pglite'));
    await migrate(db);
    const landingId = (
      await db.query<{ id: number }>("INSERT INTO landings (key, name, columns) VALUES ('crash', 'Crash', $1) RETURNING id", [JSON.stringify(formColumns)])
    ).rows[0].id;
    await db.close();

    let server = await startChild();
    let token = await login(server.url);
    const data = Array.from({ length: ROWS }, (_, i) => ({ nom: `Crash ${i}`, telephone: `06${String(i).padStart(8, '0')}`, code_postal: '30000', email: `c${i}@x.fr` }));
    const pending = fetch(`${server.url}/api/landings/${landingId}/import/excel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ form_import_from: 'Crash', data }),
    }).then(
      (res) => res.status,
      () => 'killed' as const,
    );
    await new Promise((r) => setTimeout(r, 3000));
    const exited = new Promise((r) => server.proc.once('exit', r));
    server.proc.kill('SIGKILL');
    await exited;
    expect(await pending).toBe('killed');

    server = await startChild();
    token = await login(server.url);
    const [fresh, dup] = [await total(server.url, token, landingId, 'new'), await total(server.url, token, landingId, 'duplicate')];
    expect([0, ROWS]).toContain(fresh + dup);
    expect(dup).toBe(0);

    // The database still works after recovery: the same import now goes through whole.
    const res = await fetch(`${server.url}/api/landings/${landingId}/import/excel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ form_import_from: 'Crash', data: data.slice(0, 1000) }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { duplicates: number } }).data.duplicates).toBe(fresh ? 1000 : 0);
    server.proc.kill('SIGTERM');
  }, 180_000);
});
