import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BigExportAccepted, BigExportJob } from '../../src/api/exports/contract';
import { openPostgres, type Db } from '../../server/db/connection';
import { migrate } from '../../server/db/migrate';
import { throwawayPostgres, type ThrowawayPostgres } from '../support/postgres';
import { leadTotals } from '../support/reconcile';
import { SERVER_ADMIN, startServerProcess, type ServerProcess } from '../support/server-process';
import { intakeBurst, mailedLeads, newFileWritten, seedLanding, seedLeads, seedRules } from './faults-support';
import { until } from '../support/until';

// The server on PostgreSQL: killed with SIGKILL under deliveries and a big export, then the
// database itself stopped and killed under traffic. The test reads the database directly throughout.
const dataDir = mkdtempSync(join(tmpdir(), 'faults-pg-'));
let pg: ThrowawayPostgres;
let db: Db;
let server: ServerProcess;
let token: string;

beforeAll(async () => {
  // Commits acknowledged once in the WAL, as in production: killing the database loses none.
  pg = await throwawayPostgres({ durable: true });
  db = await openPostgres(pg.url);
  await migrate(db);
  server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: pg.url, TRUST_PROXY: '1' });
  token = await server.login(SERVER_ADMIN.email, SERVER_ADMIN.password);
});
afterAll(async () => {
  await server?.kill();
  await db?.close().catch(() => undefined);
  pg?.remove();
  rmSync(dataDir, { recursive: true, force: true });
});

const restart = async () => {
  await server.restart();
  token = await server.login(SERVER_ADMIN.email, SERVER_ADMIN.password);
};
const one = async (sql: string, params: unknown[] = []) => (await db.query<{ n: number }>(sql, params)).rows[0].n;
const leadsOf = async (landingId: number) =>
  (await db.query<{ id: number }>('SELECT id FROM leads WHERE landing_id = $1 ORDER BY id', [landingId])).rows.map((r) => r.id);

/**
 * Waits until every lead of the landing has its routing decision and every delivered lead its
 * mail, then checks: as many delivered as the rules had room for, each once, counted by its rule,
 * no cap passed, one mail each (one more at most per delivery worker cut between its mail and its
 * record). Answers the landing's leads.
 */
async function expectSettled(landingId: number, rules: number[], caps: number[], timeoutMs: number) {
  const waiting = (condition: string) => one(`SELECT count(*)::int AS n FROM leads l WHERE l.landing_id = $1 AND ${condition}`, [landingId]);
  await until(async () => (await waiting('NOT EXISTS (SELECT 1 FROM lead_routings r WHERE r.lead_id = l.id)')) === 0, timeoutMs, 'every lead routed');
  const unmailed = `l.entry_status = 'extracted' AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.lead_id = l.id AND d.channel = 'mail' AND d.status = 'sent')`;
  await until(async () => (await waiting(unmailed)) === 0, timeoutMs, 'a mail sent for every delivered lead');
  const stored = await leadsOf(landingId);
  const delivered = (
    await db.query<{ id: number }>(`SELECT id FROM leads WHERE landing_id = $1 AND entry_status = 'extracted' ORDER BY id`, [landingId])
  ).rows.map((r) => r.id);
  const capacity = caps.reduce((a, b) => a + b, 0);
  expect(delivered).toHaveLength(Math.min(stored.length, capacity));
  expect(await one(`SELECT count(*)::int AS n FROM lead_routings WHERE landing_id = $1 AND outcome = 'delivered'`, [landingId])).toBe(delivered.length);
  const counts = (await db.query<{ count: number }>('SELECT count FROM reports WHERE rule_id = ANY($1::int[]) ORDER BY rule_id', [rules])).rows.map(
    (r) => r.count,
  );
  expect(counts.reduce((a, b) => a + b, 0)).toBe(delivered.length);
  if (stored.length >= capacity) expect(counts).toEqual(caps);
  expect((await leadTotals(db)).overCap).toBe(0);
  const mailed = mailedLeads(join(dataDir, 'outbox')).filter((id) => stored.includes(id));
  expect(new Set(mailed)).toEqual(new Set(delivered));
  expect(mailed.length - delivered.length).toBeLessThanOrEqual(2);
  return stored;
}

describe('kill -9 of the server on PostgreSQL', () => {
  it('during a burst of deliveries: every answered lead kept, each delivered once, the pending offers delivered after the restart, no cap passed', async () => {
    const CAPS = [30, 120];
    const landingId = await seedLanding(db, 'pg-rafale');
    const rules = await seedRules(db, landingId, CAPS);
    // Leads waiting for their routing, or routed and waiting for their mail (the rules have room for 150).
    const pending = () =>
      one(
        `SELECT count(*)::int AS n FROM leads l WHERE l.landing_id = $1
            AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.lead_id = l.id AND d.channel = 'mail' AND d.status = 'sent')`,
        [landingId],
      );
    // From the 60th answer on, killed as soon as some wait.
    let pendingAtKill = 0;
    let killing: Promise<void> | undefined;
    const cut = await intakeBurst(server, 'pg-rafale', { from: 0, count: 500 }, 24, (answered) => {
      if (answered !== 60) return;
      killing = (async () => {
        const deadline = Date.now() + 60_000;
        while (Date.now() < deadline && !(pendingAtKill = await pending()));
        await server.kill();
      })();
    });
    await killing;
    expect(cut.statuses).toEqual([]);
    expect(cut.unanswered).toBeGreaterThan(0);
    expect(pendingAtKill).toBeGreaterThan(0);

    await restart();
    // A delivery cut by the kill waits for its expiry (2 minutes) and the next maintenance (every minute).
    await expectSettled(landingId, rules, CAPS, 240_000);
    // The counters survived the crash: a second burst fills the rules to their caps, no further.
    const more = await intakeBurst(server, 'pg-rafale', { from: 500, count: 200 }, 24);
    expect(more.statuses).toEqual([]);
    const stored = await expectSettled(landingId, rules, CAPS, 120_000);
    expect(stored.length).toBeGreaterThanOrEqual(150);
    expect(stored).toEqual(expect.arrayContaining([...cut.accepted, ...more.accepted]));
  });

  it('during a big export: generated again once its heartbeat stopped, and finished with its file; no lead changed', async () => {
    const LEADS = 300_000;
    const landingId = await seedLanding(db, 'pg-big');
    await seedLeads(db, landingId, LEADS);
    const before = await leadTotals(db);
    const day = new Date().toLocaleDateString('en-CA', { timeZone: 'Europe/Paris' });
    const started = newFileWritten(join(dataDir, 'exports'));
    const res = await server.request('POST', `/api/generate_big_export?landings=${landingId}&status=new&start=${day}&end=${day}&format=csv`, { token });
    expect(res.status).toBe(202);
    const { id } = ((await res.json()) as BigExportAccepted).data;
    await until(started, 120_000, 'the big export file being written');
    await server.kill();
    expect(await one(`SELECT count(*)::int AS n FROM big_exports WHERE id = $1 AND state = 'running'`, [id])).toBe(1);

    await restart();
    await until(
      async () => (await one(`SELECT count(*)::int AS n FROM big_exports WHERE id = $1 AND state IN ('done', 'failed')`, [id])) === 1,
      240_000,
      'the big export to finish',
    );
    const job = ((await (await server.request('GET', `/api/big_exports/${id}`, { token })).json()) as { data: BigExportJob }).data;
    expect(job).toMatchObject({ state: 'done', total: LEADS, written: LEADS, error: null, export: { count: LEADS, big_export: true } });
    const file = await server.request('GET', job.export!.url);
    expect(file.status).toBe(200);
    expect((await file.text()).trimEnd().split('\r\n')).toHaveLength(LEADS + 1);
    expect(await leadTotals(db)).toEqual(before);
  });
});

describe('PostgreSQL restarted under traffic', () => {
  interface Traffic {
    statuses: Map<number, number>;
    /** Bodies of the 5xx answers other than the readiness probe's. */
    failures: Array<{ status: number; body: { error?: string; message?: string }; retryAfter: string | null }>;
    ready: number[];
    accepted: number[];
    stop(): Promise<void>;
  }

  /** Staff reading lead pages, landing pages posting leads and a load balancer probing readiness, until stopped. */
  function traffic(landingId: number, key: string): Traffic {
    const t: Traffic = { statuses: new Map(), failures: [], ready: [], accepted: [], stop: async () => undefined };
    let running = true;
    let n = 0;
    /** An answer counted by status; no answer at all (the server gone) counts as status 0. */
    const record = async (sent: Promise<Response>) => {
      const res = await sent.catch(() => undefined);
      const status = res?.status ?? 0;
      t.statuses.set(status, (t.statuses.get(status) ?? 0) + 1);
      if (res && status >= 500) t.failures.push({ status, body: await res.json(), retryAfter: res.headers.get('retry-after') });
      if (!res) await new Promise((r) => setTimeout(r, 100));
      return res;
    };
    const loops = [
      ...Array.from({ length: 4 }, async () => {
        while (running) await record(server.request('GET', `/api/landings/data/${landingId}?_limit=50&entry_status=extracted`, { token }));
      }),
      ...Array.from({ length: 4 }, async () => {
        while (running) {
          const i = n++;
          const res = await record(
            server.request('POST', `/api/intake/${key}`, {
              body: { nom: `Trafic ${i}`, telephone: `05${String(i).padStart(8, '0')}`, code_postal: '30000' },
              headers: { 'x-forwarded-for': `10.9.${(i >> 8) & 255}.${i & 255}` },
            }),
          );
          if (res?.status === 201) t.accepted.push(((await res.json()) as { data: { id: number } }).data.id);
          await new Promise((r) => setTimeout(r, 20));
        }
      }),
      (async () => {
        while (running) {
          t.ready.push((await server.request('GET', '/api/ready').catch(() => undefined))?.status ?? 0);
          await new Promise((r) => setTimeout(r, 100));
        }
      })(),
    ];
    t.stop = async () => {
      running = false;
      await Promise.all(loops);
    };
    return t;
  }

  for (const how of ['stop', 'kill'] as const) {
    it(`${how === 'stop' ? 'stopped' : 'killed'} and started again: 503 with a French message meanwhile, never a 500, back by itself, nothing lost`, async () => {
      const key = `pg-${how}`;
      const CAPS = [10, 10_000];
      const landingId = await seedLanding(db, key);
      const rules = await seedRules(db, landingId, CAPS);
      const t = traffic(landingId, key);
      await new Promise((r) => setTimeout(r, 3000));
      if (how === 'stop') pg.stop();
      else pg.kill();
      await new Promise((r) => setTimeout(r, 4000));
      const readyWhileDown = t.ready.at(-1);
      pg.start();
      await until(() => t.ready.at(-1) === 200, 60_000, 'the server ready again');
      const answeredBefore = t.accepted.length;
      await until(() => t.accepted.length > answeredBefore + 20, 60_000, 'leads accepted again');
      await t.stop();

      expect(server.proc.exitCode).toBeNull();
      expect(readyWhileDown).toBe(503);
      expect([...t.statuses.keys()].sort()).toEqual([200, 201, 503]);
      expect(t.failures.length).toBeGreaterThan(0);
      for (const f of t.failures) {
        expect(f).toEqual({
          status: 503,
          body: { error: 'unavailable', message: 'La base de données est momentanément indisponible : réessayez dans quelques instants' },
          retryAfter: '5',
        });
      }
      // Every lead answered 201 is stored and delivered, the offers refused meanwhile retried.
      const stored = await expectSettled(landingId, rules, CAPS, 240_000);
      expect(stored).toEqual(expect.arrayContaining(t.accepted));
    });
  }
});
