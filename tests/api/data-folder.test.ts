import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from './harness';

// The data folder of the embedded database removed while the server runs (issue 24, item 8): the
// server answered 500s from an aborted transaction, or spun at full CPU answering nothing.

let server: TestServer;
let dataDir: string;
let dir: string;

const timed = async (path: string, init?: RequestInit) => {
  const started = Date.now();
  const res = await fetch(server.url + path, { ...init, signal: AbortSignal.timeout(5000) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, ms: Date.now() - started };
};

// PGlite's folder: nothing to remove when the tests run on a PostgreSQL server.
describe.skipIf(process.env.TEST_DATABASE_URL !== undefined)('a data folder removed under a running server', () => {
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lead-console-folder-'));
    dir = join(dataDir, 'pglite');
    server = await startServer({ DATA_DIR: dataDir, pgliteDir: dir });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('makes the database unavailable: /api/ready and requests 503, /api/health still answers', async () => {
    expect((await timed('/api/ready')).status).toBe(200);
    rmSync(dir, { recursive: true, force: true });
    const signIn = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) };
    for (let i = 0; i < 3; i++) {
      const ready = await timed('/api/ready');
      expect(ready).toMatchObject({ status: 503, body: { status: 'unavailable', database: false } });
      const login = await timed('/api/auth', signIn);
      expect(login).toMatchObject({ status: 503, body: { error: 'unavailable' } });
      const health = await timed('/api/health');
      expect(health).toMatchObject({ status: 200, body: { status: 'ok' } });
      expect(Math.max(ready.ms, login.ms, health.ms)).toBeLessThan(1000);
    }
  });
});
