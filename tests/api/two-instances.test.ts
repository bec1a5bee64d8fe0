import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRUNE_LEAD_ACTIONS_JOB } from '../../server/services/maintenance';
import { ADMIN, freshPostgresDatabase, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json } from './leads-support';
import { createCustomer, createRule } from './lives-support';
import { until } from '../support/until';

// Two servers, each with its own connection pool and pg-boss, on one PostgreSQL and one bucket:
// what N instances behind a load balancer share (docs/decisions.md §9), driven through both at once.
// PostgreSQL only (CI's second api run): PGlite is the database of one process.
const postgres = process.env.TEST_DATABASE_URL;

const BUCKET = 'lead-exports';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!postgres)('two instances on one PostgreSQL', () => {
  let s3rverDir: string;
  let s3rver: S3rver;
  let a: TestServer;
  let b: TestServer;
  /** Each instance's log lines (JSON), to count what each one ran. */
  const logs: Record<'a' | 'b', string[]> = { a: [], b: [] };
  let token: string;

  beforeAll(async () => {
    s3rverDir = mkdtempSync(join(tmpdir(), 's3rver-'));
    s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3rverDir, configureBuckets: [{ name: BUCKET }] });
    const { port } = await s3rver.run();
    const shared = {
      DATABASE_URL: await freshPostgresDatabase(postgres!),
      S3_URL: `http://127.0.0.1:${port}`,
      S3_BUCKET: BUCKET,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      LOG_LEVEL: 'info' as const,
      // Each instance looks for due schedules every second instead of every 30 s.
      cronCheckSeconds: 1,
    };
    // Started together, as a deployment starts its instances: both migrate the empty database and
    // install pg-boss's schema at the same moment.
    [a, b] = await Promise.all(
      (['a', 'b'] as const).map((name) => startServer(shared, { logStream: { write: (line: string) => void logs[name].push(line) } })),
    );
    token = await a.login(ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await s3rver?.close();
    if (s3rverDir) rmSync(s3rverDir, { recursive: true, force: true });
  });

  /** Waits, when needed, until the database's minute has `seconds` left: what follows then happens within one minute. */
  const minuteLeft = async (seconds: number) => {
    const { rows } = await a.ctx.db.query<{ s: number }>('SELECT extract(second FROM now())::float AS s');
    if (rows[0].s > 60 - seconds) await sleep((60.2 - rows[0].s) * 1000);
  };
  const statusOf = async (id: number) =>
    (await a.ctx.db.query<{ entry_status: string }>('SELECT entry_status FROM leads WHERE id = $1', [id])).rows[0].entry_status;

  it('are both ready, and a session opened on one works on the other until signed out on either', async () => {
    for (const server of [a, b]) expect((await server.request('GET', '/api/ready')).status).toBe(200);
    const session = await a.login(ADMIN.email, ADMIN.password);
    expect((await b.request('GET', '/api/me', { token: session })).status).toBe(200);

    // A bulk action on one, undone through the other.
    const landing = await createLanding(a.ctx.db);
    const [id] = await insertLeads(a.ctx.db, landing.id, [{}]);
    const archived = await a.request('POST', '/api/landings/data', { token: session, body: { entry_status: 'archived', leads: [id] } });
    expect(await statusOf(id)).toBe('archived');
    const { data } = await json<{ data: { action_id: number } }>(archived);
    expect((await b.request('POST', `/api/landings/data/undo/${data.action_id}`, { token: session, body: {} })).status).toBe(200);
    expect(await statusOf(id)).toBe('new');

    // A map note written through one, read through the other.
    expect((await a.request('POST', '/api/productions/pac/FR-30/change_text', { token: session, body: { text: 'Rappeler lundi' } })).status).toBe(200);
    const production = await json<{ data: { regions: Array<{ region: string; text: string }> } }>(
      await b.request('GET', '/api/productions/pac', { token: session }),
    );
    expect(production.data.regions).toContainEqual(expect.objectContaining({ region: 'FR-30', text: 'Rappeler lundi' }));

    expect((await b.request('POST', '/api/login/logout', { token: session })).status).toBe(200);
    for (const server of [a, b]) expect((await server.request('GET', '/api/me', { token: session })).status).toBe(401);
  });

  it('count sign-in failures together: five spread over both lock the pair on both', async () => {
    const attempt = (server: TestServer, password: string) =>
      server.request('POST', '/api/auth', { body: { email: ADMIN.email, password }, headers: { 'x-forwarded-for': '203.0.113.50' } });
    const failures = await Promise.all([a, b, a, b, a].map((server) => attempt(server, 'wrong-password-1')));
    expect(failures.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    for (const server of [b, a]) expect((await attempt(server, ADMIN.password)).status).toBe(429);
  });

  it('sell overlapping selections from both at once: no lead twice, the counts add up, any instance serves any file', async () => {
    const landing = await createLanding(a.ctx.db);
    const ids = await insertLeads(
      a.ctx.db,
      landing.id,
      Array.from({ length: 400 }, (_, i) => ({ nom: `Vente ${i}`, code_postal: '30000' })),
    );
    // Eight sales, four through each instance, 150 leads from every 50th: each lead is wanted by one to three of them.
    const sales = Array.from({ length: 8 }, (_, k) => ({ via: k % 2 ? b : a, other: k % 2 ? a : b, leads: ids.slice(k * 50, k * 50 + 150) }));
    const answers = await Promise.all(
      sales.map(({ via, leads }, k) =>
        via.request('POST', `/api/landings/data/${landing.id}/export`, {
          token,
          body: { bookType: 'csv', filename: `Vente ${k}`, leads, for_customer: `Client ${k}`, rapport: null },
        }),
      ),
    );
    expect(answers.map((r) => r.status).every((s) => s === 200 || s === 409)).toBe(true);

    const sold: number[] = [];
    for (const [k, res] of answers.entries()) {
      if (res.status !== 200) continue;
      const { data } = await json<{ data: { url: string; count: number } }>(res);
      // Downloaded from the instance that did not write it.
      const file = await fetch(sales[k].other.url + data.url);
      expect(file.status).toBe(200);
      const rows = Papa.parse<string[]>((await file.text()).replace(/^\uFEFF/, ''), { delimiter: ';', skipEmptyLines: true }).data;
      const inFile = rows.slice(1).map((r) => Number(r[rows[0].indexOf('ID')]));
      expect(inFile).toHaveLength(data.count);
      for (const id of inFile) expect(sales[k].leads).toContain(id);
      sold.push(...inFile);
    }
    expect(sold.sort((x, y) => x - y)).toEqual(ids);
    const { rows } = await a.ctx.db.query<{ n: number; exports: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT export_id)::int AS exports FROM leads WHERE id = ANY($1::bigint[]) AND entry_status = 'extracted' AND export_id IS NOT NULL`,
      [ids],
    );
    const written = answers.filter((r) => r.status === 200).length;
    expect(rows[0]).toEqual({ n: 400, exports: written });
    // Each instance's history lists every sale, whichever instance made it.
    for (const server of [a, b]) {
      const history = await json<{ total: number; total_leads: number }>(await server.request('GET', `/api/exports?landing_id=${landing.id}`, { token }));
      expect(history).toMatchObject({ total: written, total_leads: 400 });
    }
  });

  it('deliver intakes posted to both at once: no rule past its cap, no lead delivered twice', async () => {
    const landing = await createLanding(a.ctx.db);
    const caps = [4, 8, 12];
    const rules = [];
    for (const [i, cap] of caps.entries()) {
      const via = i % 2 ? b : a;
      rules.push(
        await createRule(via, token, { name: `Cap ${cap}`, customer_id: await createCustomer(via, token), landings: [landing.id], leads_number: cap }),
      );
    }
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? b : a).request('POST', `/api/intake/${landing.key}`, {
          body: { nom: `Lead ${i}`, telephone: `06${String(i).padStart(8, '0')}`, code_postal: '30900' },
          headers: { 'x-forwarded-for': `198.51.100.${i}` },
        }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(60).fill(201));
    const ids = (await Promise.all(answers.map((r) => json<{ data: { id: number } }>(r)))).map((body) => body.data.id);
    const count = async (sql: string) => (await a.ctx.db.query<{ n: number }>(sql, [ids])).rows[0].n;

    await until(
      async () => (await count('SELECT count(*)::int AS n FROM lead_routings WHERE lead_id = ANY($1::bigint[])')) === 60,
      30_000,
      'every lead routed',
    );
    expect(await count(`SELECT count(*)::int AS n FROM leads WHERE id = ANY($1::bigint[]) AND entry_status = 'extracted'`)).toBe(24);
    expect(await count(`SELECT count(*)::int AS n FROM lead_routings WHERE lead_id = ANY($1::bigint[]) AND outcome = 'delivered'`)).toBe(24);
    const { rows: reports } = await a.ctx.db.query<{ count: number; leads_number: number; listed: number }>(
      `SELECT rep.count, rep.leads_number, (SELECT count(*)::int FROM leads l WHERE l.rapport_id = rep.id) AS listed
         FROM reports rep WHERE rep.rule_id = ANY($1::int[]) ORDER BY rep.leads_number`,
      [rules.map((r) => r.id)],
    );
    expect(reports.map((r) => [r.count, r.leads_number, r.listed])).toEqual(caps.map((c) => [c, c, c]));

    await until(
      async () => (await count(`SELECT count(*)::int AS n FROM deliveries WHERE lead_id = ANY($1::bigint[]) AND status = 'sent'`)) === 24,
      30_000,
      'the mails',
    );
    expect(
      await count(
        'SELECT count(*)::int AS n FROM (SELECT lead_id FROM deliveries WHERE lead_id = ANY($1::bigint[]) GROUP BY lead_id HAVING count(*) > 1) twice',
      ),
    ).toBe(0);
  });

  it('count the intake limit of an address over both instances', async () => {
    const landing = await createLanding(a.ctx.db);
    const post = (server: TestServer, ip = '203.0.113.9') =>
      server.request('POST', `/api/intake/${landing.key}`, { body: { nom: 'x' }, headers: { 'x-forwarded-for': ip } });
    // 60 a minute per address: 30 through each instance, at once, all let through (and refused as invalid forms).
    const allowed = await Promise.all(Array.from({ length: 60 }, (_, i) => post(i % 2 ? b : a)));
    expect(allowed.map((r) => r.status)).toEqual(Array(60).fill(422));
    for (const server of [a, b]) {
      const refused = await post(server);
      expect(refused.status).toBe(429);
      expect(await json(refused)).toEqual({ error: 'rate_limited', message: 'Trop de requêtes, veuillez réessayer dans une minute' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect((await post(b, '203.0.113.10')).status).toBe(422);
  });

  it('run a scheduled maintenance job once, not once per instance', async () => {
    // An undo record past the 30 days of retention, for the nightly pruning to delete.
    const landing = await createLanding(a.ctx.db);
    const [id] = await insertLeads(a.ctx.db, landing.id, [{}]);
    const { data } = await json<{ data: { action_id: number } }>(
      await b.request('POST', '/api/landings/data', { token, body: { entry_status: 'trashed', leads: [id] } }),
    );
    await a.ctx.db.query(`UPDATE lead_actions SET created_at = now() - interval '40 days' WHERE id = $1`, [data.action_id]);

    // Both instances check every second; the nightly pruning is made due in the current minute.
    await minuteLeft(12);
    await a.ctx.db.query(`UPDATE pgboss.schedule SET cron = extract(minute FROM now())::int || ' * * * *' WHERE name = $1`, [PRUNE_LEAD_ACTIONS_JOB.name]);
    const pruned = async () => (await a.ctx.db.query('SELECT 1 FROM lead_actions WHERE id = $1', [data.action_id])).rows.length === 0;
    await until(pruned, 20_000, 'the pruning');
    // Each instance checks again, within the minute the run was due in: none runs it a second time.
    await sleep(3000);
    const runs = (name: 'a' | 'b') => logs[name].filter((line) => line.includes('"msg":"undo records pruned"')).length;
    expect(runs('a') + runs('b')).toBe(1);
    const { rows } = await a.ctx.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM pgboss.job WHERE name = $1) + (SELECT count(*) FROM pgboss.archive WHERE name = $1) AS n`,
      [PRUNE_LEAD_ACTIONS_JOB.name],
    );
    expect(Number(rows[0].n)).toBe(1);
  });
});
