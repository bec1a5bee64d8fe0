import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BigExportAccepted, BigExportJob } from '../../src/api/exports/contract';
import { openPglite } from '../../server/db/connection';
import { migrate } from '../../server/db/migrate';
import { leadTotals, type LeadTotals } from '../support/reconcile';
import { SERVER_ADMIN, startServerProcess, type ServerProcess } from '../support/server-process';
import { seedLanding, seedLeads } from './faults-support';
import { until } from '../support/until';

// A real full disk: the server's export folder is a 256 kB tmpfs (mounting needs root; elsewhere
// tests/api/exports-storage-failure.test.ts covers the same answers with /dev/full).
const dataDir = mkdtempSync(join(tmpdir(), 'faults-disk-'));
const exportsDir = join(dataDir, 'exports');
mkdirSync(exportsDir);
const mount = () => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', exportsDir], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
};
const mounted = process.getuid?.() === 0 && mount();
const unmount = () => execFileSync('umount', [exportsDir], { stdio: 'pipe' });

const LEADS = 20_000;
let server: ServerProcess;
let token: string;
let landingId: number;
let before: LeadTotals;

beforeAll(async () => {
  if (!mounted) return;
  const db = await openPglite(join(dataDir, 'pglite'));
  await migrate(db);
  landingId = await seedLanding(db, 'disque');
  await seedLeads(db, landingId, LEADS);
  before = await leadTotals(db);
  await db.close();
  server = await startServerProcess({ DATA_DIR: dataDir });
  token = await server.login(SERVER_ADMIN.email, SERVER_ADMIN.password);
});
afterAll(async () => {
  await server?.kill();
  if (mounted) {
    try {
      unmount();
    } catch {
      // unmounted by the last test already
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(!mounted)('the disk full during an export', () => {
  const sell = () =>
    server.request('POST', `/api/landings/data/${landingId}/export`, { token, body: { bookType: 'csv', filter: { ids: [landingId], entry_status: 'new' } } });
  const fresh = async () =>
    ((await (await server.request('GET', `/api/landings/data/${landingId}?_limit=0&entry_status=new`, { token })).json()) as { total: number }).total;

  it('answers 507 with a clear French message; the leads stay unsold and no file is left', async () => {
    const res = await sell();
    expect(res.status).toBe(507);
    expect(await res.json()).toEqual({
      error: 'insufficient_storage',
      message:
        "Espace disque insuffisant pour écrire le fichier d'export : aucun lead n'a été extrait. Libérez de la place sur le serveur ou prévenez un administrateur.",
    });
    expect(await fresh()).toBe(LEADS);
    expect(readdirSync(exportsDir)).toEqual([]);
  });

  it('marks a big export failed with the same reason', async () => {
    const day = new Date().toLocaleDateString('en-CA', { timeZone: 'Europe/Paris' });
    const res = await server.request('POST', `/api/generate_big_export?landings=${landingId}&status=new&start=${day}&end=${day}&format=csv`, { token });
    const { id } = ((await res.json()) as BigExportAccepted).data;
    let job: BigExportJob | undefined;
    await until(
      async () => {
        job = ((await (await server.request('GET', `/api/big_exports/${id}`, { token })).json()) as { data: BigExportJob }).data;
        return job.state === 'done' || job.state === 'failed';
      },
      60_000,
      'the big export to end',
    );
    expect(job).toMatchObject({
      state: 'failed',
      export: null,
      error: expect.stringMatching(/^Espace disque insuffisant pour écrire le fichier d'export : l'export n'a pas été créé\./),
    });
    expect(readdirSync(exportsDir)).toEqual([]);
  });

  it('sells every lead once there is room again, and the totals reconcile', async () => {
    unmount();
    const res = await sell();
    expect(res.status).toBe(200);
    expect(await fresh()).toBe(0);
    await server.kill('SIGTERM');
    const db = await openPglite(join(dataDir, 'pglite'));
    const after = await leadTotals(db);
    await db.close();
    expect(after).toEqual({ ...before, byStatus: { extracted: LEADS }, exported: LEADS, exportCounts: LEADS });
  });
});
