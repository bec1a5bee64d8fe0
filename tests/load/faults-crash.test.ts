import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BigExportAccepted, BigExportJob } from '../../src/api/exports/contract';
import { openPglite, type Db } from '../../server/db/connection';
import { migrate } from '../../server/db/migrate';
import { leadTotals } from '../support/reconcile';
import { SERVER_ADMIN, startServerProcess, type ServerProcess } from '../support/server-process';
import { folderBytes, intakeBurst, mailedLeads, newFileWritten, seedLanding, seedLeads, seedRules } from './faults-support';
import { until } from '../support/until';

// The server killed with SIGKILL in the middle of each bulk write, on its embedded database; each
// case counts every lead before and after a restart. Seeding and counting open the database
// in this process, the server stopped (PGlite is one process's).
const dataDir = mkdtempSync(join(tmpdir(), 'faults-crash-'));
const pgliteDir = join(dataDir, 'pglite');
const exportsDir = join(dataDir, 'exports');
let server: ServerProcess | undefined;

/** Stops the server (gracefully) and runs `fn` on the database. */
async function offline<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  await server?.kill('SIGTERM');
  const db = await openPglite(pgliteDir);
  try {
    await migrate(db);
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** Starts the server (recovering the database after a crash); answers an admin's token. */
async function online(): Promise<string> {
  if (server) await server.restart();
  else server = await startServerProcess({ DATA_DIR: dataDir, TRUST_PROXY: '1' });
  return server.login(SERVER_ADMIN.email, SERVER_ADMIN.password);
}

/** Resolves once the database files have grown by `bytes`: the write is under way, not yet committed. */
const writing = (bytes: number, what: string) => {
  const start = folderBytes(join(pgliteDir, 'base'));
  return until(() => folderBytes(join(pgliteDir, 'base')) > start + bytes, 120_000, what);
};

/** Sends a request whose answer the kill must cut: resolves with its status, or 'killed'. */
const cut = (method: string, path: string, token: string, body?: unknown) =>
  server!.request(method, path, { token, body }).then(
    (res) => res.status,
    () => 'killed' as const,
  );

const countByStatus = async (db: Db, landingId: number) =>
  Object.fromEntries(
    (
      await db.query<{ s: string; n: number }>('SELECT entry_status AS s, count(*)::int AS n FROM leads WHERE landing_id = $1 GROUP BY 1', [landingId])
    ).rows.map((r) => [r.s, r.n]),
  );

const parisDay = () => new Date().toLocaleDateString('en-CA', { timeZone: 'Europe/Paris' });

afterAll(async () => {
  await server?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('kill -9 of the server on PGlite', () => {
  it('during an import of 150,000 rows: after the restart all of them or none', async () => {
    const ROWS = 150_000;
    const { landingId, before } = await offline(async (db) => ({ landingId: await seedLanding(db, 'import'), before: await leadTotals(db) }));
    const token = await online();
    const data = Array.from({ length: ROWS }, (_, i) => ({ nom: `Import ${i}`, telephone: `06${String(i).padStart(8, '0')}`, code_postal: '30000' }));
    const answer = cut('POST', `/api/landings/${landingId}/import/excel`, token, { form_import_from: 'Panne', data });
    await writing(4 << 20, 'the import writing its leads');
    await server!.kill();
    expect(await answer).toBe('killed');

    await online();
    const after = await offline(async (db) => ({
      totals: await leadTotals(db),
      landing: await countByStatus(db, landingId),
      imports: (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM imports WHERE landing_id = $1', [landingId])).rows[0].n,
    }));
    expect([{}, { new: ROWS }]).toContainEqual(after.landing);
    expect(after.imports).toBe(after.landing.new ? 1 : 0);
    expect(after.totals.total).toBe(before.total + (after.landing.new ?? 0));
  });

  it('during a status change of 100,000 leads: after the restart it happened wholly or not at all', async () => {
    const LEADS = 100_000;
    const { landingId, before } = await offline(async (db) => {
      const id = await seedLanding(db, 'status');
      await seedLeads(db, id, LEADS);
      return { landingId: id, before: await leadTotals(db) };
    });
    const token = await online();
    const answer = cut('POST', '/api/landings/data', token, { entry_status: 'archived', filter: { ids: [landingId], entry_status: 'new' } });
    await writing(2 << 20, 'the status change writing');
    await server!.kill();
    expect(await answer).toBe('killed');

    await online();
    const after = await offline(async (db) => ({
      totals: await leadTotals(db),
      landing: await countByStatus(db, landingId),
      undo: (await db.query<{ count: number }>(`SELECT count FROM lead_actions WHERE to_status = 'archived'`)).rows.map((r) => r.count),
    }));
    expect([{ new: LEADS }, { archived: LEADS }]).toContainEqual(after.landing);
    // The undo record exists exactly when the change does.
    expect(after.undo).toEqual(after.landing.archived ? [LEADS] : []);
    expect(after.totals.total).toBe(before.total);
  });

  it('during an export: after the restart the leads are unsold and no export is listed; the same export then goes through', async () => {
    const LEADS = 30_000;
    const { landingId, before } = await offline(async (db) => {
      const id = await seedLanding(db, 'extract');
      await seedLeads(db, id, LEADS);
      return { landingId: id, before: await leadTotals(db) };
    });
    let token = await online();
    const sell = () => cut('POST', `/api/landings/data/${landingId}/export`, token, { bookType: 'xlsx', filter: { ids: [landingId], entry_status: 'new' } });
    const started = newFileWritten(exportsDir);
    const answer = sell();
    // The file is written after the sale's UPDATE, in its transaction: killed while it grows, the sale is under way, uncommitted.
    await until(started, 120_000, 'the export file being written');
    await server!.kill();
    expect(await answer).toBe('killed');

    token = await online();
    const after = await offline(async (db) => ({ totals: await leadTotals(db), landing: await countByStatus(db, landingId) }));
    expect(after.landing).toEqual({ new: LEADS });
    expect(after.totals).toEqual(before);
    // Only the killed writer's unfinished .part is left; no complete file.
    expect(readdirSync(exportsDir).filter((f) => !f.endsWith('.part'))).toEqual([]);

    token = await online();
    expect(await sell()).toBe(200);
    const sold = await offline(async (db) => ({ totals: await leadTotals(db), landing: await countByStatus(db, landingId) }));
    expect(sold.landing).toEqual({ extracted: LEADS });
    expect(sold.totals).toMatchObject({ total: before.total, exported: before.exported + LEADS, exportCounts: before.exportCounts + LEADS });
  });

  it('during a big export: after the restart it is generated again and finishes, with its file, and no lead changed', async () => {
    const LEADS = 150_000;
    const { landingId, before } = await offline(async (db) => {
      const id = await seedLanding(db, 'big');
      await seedLeads(db, id, LEADS);
      return { landingId: id, before: await leadTotals(db) };
    });
    let token = await online();
    const started = newFileWritten(exportsDir);
    const res = await server!.request('POST', `/api/generate_big_export?landings=${landingId}&status=new&start=${parisDay()}&end=${parisDay()}&format=csv`, {
      token,
    });
    expect(res.status).toBe(202);
    const { id } = ((await res.json()) as BigExportAccepted).data;
    await until(started, 120_000, 'the big export file being written');
    await server!.kill();

    token = await online();
    let job: BigExportJob | undefined;
    await until(
      async () => {
        job = ((await (await server!.request('GET', `/api/big_exports/${id}`, { token })).json()) as { data: BigExportJob }).data;
        return job.state === 'done' || job.state === 'failed';
      },
      120_000,
      'the big export to finish',
    );
    expect(job).toMatchObject({ state: 'done', total: LEADS, written: LEADS, error: null, export: { count: LEADS, big_export: true } });
    const file = await server!.request('GET', job!.export!.url);
    expect(file.status).toBe(200);
    expect((await file.text()).trimEnd().split('\r\n')).toHaveLength(LEADS + 1);

    const after = await offline(async (db) => ({
      totals: await leadTotals(db),
      attempts: (await db.query<{ attempts: number }>('SELECT attempts FROM big_exports WHERE id = $1', [id])).rows[0].attempts,
    }));
    expect(after.totals).toEqual(before);
    expect(after.attempts).toBe(2);
  });

  it('during a burst of deliveries: every answered lead kept, each delivered once, the pending offers delivered after the restart, no cap passed', async () => {
    const CAPS = [30, 120];
    const { landingId, rules, before } = await offline(async (db) => {
      const id = await seedLanding(db, 'rafale');
      return { landingId: id, rules: await seedRules(db, id, CAPS), before: await leadTotals(db) };
    });
    let token = await online();
    const count = async (status: string) =>
      ((await (await server!.request('GET', `/api/landings/data/${landingId}?_limit=0&entry_status=${status}`, { token })).json()) as { total: number }).total;
    const outbox = join(dataDir, 'outbox');
    // Leads waiting for their routing, or routed and waiting for their mail (the rules have room for 150).
    const pending = async () => (await count('new')) + (await count('extracted')) - new Set(mailedLeads(outbox)).size;
    // From the 60th answer on, killed as soon as some wait.
    let pendingAtKill = 0;
    let killing: Promise<void> | undefined;
    const cut = await intakeBurst(server!, 'rafale', { from: 0, count: 400 }, 16, (answered) => {
      if (answered !== 60) return;
      killing = (async () => {
        const deadline = Date.now() + 60_000;
        while (Date.now() < deadline && !(pendingAtKill = await pending()));
        await server!.kill();
      })();
    });
    await killing;
    expect(cut.statuses).toEqual([]);
    expect(cut.unanswered).toBeGreaterThan(0);
    expect(pendingAtKill).toBeGreaterThan(0);

    // Every lead delivered while the rules have room, each with its mail.
    const settled = async () => {
      const [fresh, delivered] = [await count('new'), await count('extracted')];
      return delivered === Math.min(fresh + delivered, 150) && new Set(mailedLeads(outbox)).size === delivered;
    };
    token = await online();
    await until(settled, 120_000, 'the pending leads delivered');
    // The counters survived the crash: a second burst fills the rules to their caps, no further.
    const more = await intakeBurst(server!, 'rafale', { from: 400, count: 200 }, 16);
    expect(more.statuses).toEqual([]);
    await until(settled, 120_000, 'the second burst delivered');
    // The leads past the caps are decided too (unmatched), in the offer queue after the deliveries.
    const undecided = async () => {
      const page = (await (await server!.request('GET', `/api/landings/data/${landingId}?_limit=500&entry_status=new`, { token })).json()) as {
        data: { id: number }[];
      };
      for (const { id } of page.data) {
        const routing = (await (await server!.request('GET', `/api/landings/data/${landingId}/routing/${id}`, { token })).json()) as {
          data: { outcome: string };
        };
        if (routing.data.outcome === 'pending') return true;
      }
      return false;
    };
    await until(async () => !(await undecided()), 120_000, 'every lead decided');

    const after = await offline(async (db) => {
      const stored = (await db.query<{ id: number }>('SELECT id FROM leads WHERE landing_id = $1 ORDER BY id', [landingId])).rows.map((r) => r.id);
      const delivered = (
        await db.query<{ id: number }>(`SELECT id FROM leads WHERE landing_id = $1 AND entry_status = 'extracted' ORDER BY id`, [landingId])
      ).rows.map((r) => r.id);
      const decided = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM lead_routings WHERE landing_id = $1', [landingId]);
      const perRule = await db.query<{ rule_id: number; count: number }>('SELECT rule_id, count FROM reports ORDER BY rule_id');
      const sent = await db.query<{ n: number }>(`SELECT count(DISTINCT lead_id)::int AS n FROM deliveries WHERE status = 'sent' AND channel = 'mail'`);
      return {
        stored,
        delivered,
        decided: decided.rows[0].n,
        sent: sent.rows[0].n,
        totals: await leadTotals(db),
        perRule: perRule.rows.map((r) => [r.rule_id, r.count]),
      };
    });
    // Nothing lost: every answered post is a lead, each decided once.
    expect(after.stored).toEqual(expect.arrayContaining([...cut.accepted, ...more.accepted]));
    expect(after.totals.total).toBe(before.total + after.stored.length);
    expect(after.decided).toBe(after.stored.length);
    // Each delivered once, counted by its rule; both rules full, none past its cap; the rest left new for the staff.
    expect(after.totals).toMatchObject({ delivered: 150, reportCounts: 150, overCap: 0 });
    expect(after.perRule).toEqual([
      [rules[0], 30],
      [rules[1], 120],
    ]);
    // One mail per delivered lead; a mail written just before the kill and written again at its retry is the only repeat there can be.
    expect(after.sent).toBe(150);
    const mailed = mailedLeads(outbox);
    expect(new Set(mailed)).toEqual(new Set(after.delivered));
    expect(mailed.length - 150).toBeLessThanOrEqual(1);
  });
});
