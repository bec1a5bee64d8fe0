import { existsSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BigExportAccepted, BigExportJob } from '../../src/api/exports/contract';
import { exportStorage } from '../../server/services/exports/extract';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json } from './leads-support';

// A full disk: while `disk.full`, the export files (written as *.part) go to /dev/full, whose every
// write the kernel refuses with ENOSPC, exactly as a full disk's.
// The API files share one module registry (vitest.config.ts): the server's modules an earlier file
// loaded hold the real fs, so they are loaded again here, after the mock, and again after this
// file, without it, for the files that follow.
const disk = vi.hoisted(() => {
  vi.resetModules();
  return { full: false };
});
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const createWriteStream: typeof fs.createWriteStream = (path, opts) =>
    fs.createWriteStream(disk.full && String(path).endsWith('.part') ? '/dev/full' : path, opts);
  return { ...fs, createWriteStream };
});

let server: TestServer;
let token: string;
let landing: { id: number };
let ids: number[];

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
  landing = await createLanding(server.ctx.db);
  ids = await insertLeads(
    server.ctx.db,
    landing.id,
    Array.from({ length: 300 }, (_, i) => ({ telephone: `06${String(i).padStart(8, '0')}`, code_postal: '30000' })),
  );
});
afterAll(async () => {
  await server.close();
  vi.doUnmock('node:fs');
  vi.resetModules();
});

const exportsDir = () => join(server.dataDir, 'exports');
const sell = () => server.request('POST', `/api/landings/data/${landing.id}/export`, { token, body: { bookType: 'csv', leads: ids } });
const state = async () => {
  const { rows } = await server.ctx.db.query<{ fresh: number; exports: number }>(
    `SELECT (SELECT count(*)::int FROM leads WHERE id = ANY($1::bigint[]) AND entry_status = 'new') AS fresh, (SELECT count(*)::int FROM exports) AS exports`,
    [ids],
  );
  return rows[0];
};
const files = () => (existsSync(exportsDir()) ? readdirSync(exportsDir()) : []);

describe('export storage failures', () => {
  it('answers 507 with a French message when the disk is full, and sells nothing', async () => {
    disk.full = true;
    try {
      for (const bookType of ['csv', 'xlsx', 'pdf']) {
        const res = await server.request('POST', `/api/landings/data/${landing.id}/export`, { token, body: { bookType, leads: ids } });
        expect(res.status).toBe(507);
        const body = await json<{ error: string; message: string }>(res);
        expect(body.error).toBe('insufficient_storage');
        expect(body.message).toMatch(/^Espace disque insuffisant pour écrire le fichier d'export : aucun lead n'a été extrait\./);
      }
    } finally {
      disk.full = false;
    }
    expect(await state()).toEqual({ fresh: ids.length, exports: 0 });
    expect(files()).toEqual([]);
  });

  it('answers 503 when the export folder cannot be written (not a folder), and sells nothing', async () => {
    rmSync(exportsDir(), { recursive: true, force: true });
    writeFileSync(exportsDir(), 'not a folder');
    try {
      const res = await sell();
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      const body = await json<{ error: string; message: string }>(res);
      expect(body).toEqual({
        error: 'unavailable',
        message: expect.stringMatching(/^Le stockage des fichiers d'export est indisponible : aucun lead n'a été extrait\./),
      });
    } finally {
      rmSync(exportsDir());
    }
    expect(await state()).toEqual({ fresh: ids.length, exports: 0 });
  });

  it('marks a custom export failed with the reason when the disk is full', async () => {
    disk.full = true;
    try {
      const day = new Date().toLocaleDateString('en-CA', { timeZone: 'Europe/Paris' });
      const res = await server.request('POST', `/api/generate_big_export?landings=${landing.id}&status=new&start=${day}&end=${day}&format=csv`, { token });
      expect(res.status).toBe(202);
      const { id } = (await json<BigExportAccepted>(res)).data;
      let job: BigExportJob;
      do {
        await new Promise((r) => setTimeout(r, 100));
        job = (await json<{ data: BigExportJob }>(await server.request('GET', `/api/big_exports/${id}`, { token }))).data;
      } while (job.state === 'queued' || job.state === 'running');
      expect(job).toMatchObject({
        state: 'failed',
        export: null,
        error: expect.stringMatching(/^Espace disque insuffisant pour écrire le fichier d'export : l'export n'a pas été créé\./),
      });
    } finally {
      disk.full = false;
    }
    expect(files()).toEqual([]);
  });

  it('sells the same leads once the disk has room again', async () => {
    const res = await sell();
    expect(res.status).toBe(200);
    expect((await json<{ data: { count: number } }>(res)).data.count).toBe(ids.length);
    expect(await state()).toEqual({ fresh: 0, exports: 1 });
    expect(files()).toHaveLength(1);
  });

  it('drops the unfinished files of a writer that died, once untouched for an hour', async () => {
    const [published] = files();
    const hoursAgo = new Date(Date.now() - 2 * 3600_000);
    writeFileSync(join(exportsDir(), 'dead.csv.part'), 'cut');
    utimesSync(join(exportsDir(), 'dead.csv.part'), hoursAgo, hoursAgo);
    writeFileSync(join(exportsDir(), 'live.csv.part'), 'writing');
    expect(await exportStorage(server.ctx.config).sweep(3600_000)).toBe(1);
    expect(files().sort()).toEqual([published, 'live.csv.part'].sort());
  });
});
