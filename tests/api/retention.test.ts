import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportStorage } from '../../server/services/exports/extract';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json, normalUserToken } from './leads-support';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer({ RETENTION_MONTHS: 12 });
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(() => server.close());

const db = () => server.ctx.db;
const archives = async () =>
  json<{ data: Array<{ month: string; landing_id: number; leads: number; bytes: number; state: string }>; retention_months: number }>(
    await server.request('GET', '/api/exports/archives', { token }),
  );
/** Every lead of the landings, every column, and what hangs on them. */
const snapshot = async (landings: number[]) =>
  (
    await db().query(
      `SELECT to_jsonb(l) AS lead, (SELECT jsonb_agg(to_jsonb(s) ORDER BY s.id) FROM lead_sales s WHERE s.lead_id = l.id) AS sales,
              (SELECT to_jsonb(r) FROM lead_routings r WHERE r.lead_id = l.id) AS routing
         FROM leads l WHERE landing_id = ANY($1::int[]) ORDER BY id`,
      [landings],
    )
  ).rows;
/** The month statistics of the landings, as kept by their triggers (groups at zero left out). */
const monthStats = async (landings: number[]) =>
  (
    await db().query(
      `SELECT landing_id, month::text, entry_status, departement, value, google, facebook FROM lead_month_stats
        WHERE landing_id = ANY($1::int[]) AND value <> 0 ORDER BY 1, 2, 3, 4`,
      [landings],
    )
  ).rows;
/** The same statistics counted from the leads themselves. */
const recount = async (landings: number[]) =>
  (
    await db().query(
      `SELECT landing_id, lead_month(created_at)::text AS month, entry_status, departement, count(*)::int AS value,
              (count(*) FILTER (WHERE source = 'google'))::int AS google, (count(*) FILTER (WHERE source = 'facebook'))::int AS facebook
         FROM leads WHERE landing_id = ANY($1::int[]) GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
      [landings],
    )
  ).rows;
/** The persons kept of the landings' leads (their phones, emails and postal codes), and those the leads hold. */
const persons = async (landings: number[]) => {
  const kept = await db().query('SELECT lead_id AS id, created_at, phone, email, postal_code FROM lead_persons WHERE landing_id = ANY($1::int[]) ORDER BY 1', [
    landings,
  ]);
  const held = await db().query(
    `SELECT id, created_at, phone, email, data ->> 'code_postal' AS postal_code FROM leads
      WHERE landing_id = ANY($1::int[]) AND (phone IS NOT NULL OR email IS NOT NULL OR data ? 'code_postal') ORDER BY 1`,
    [landings],
  );
  return { kept: kept.rows, held: held.rows };
};

describe('retention', () => {
  it('archives the months older than RETENTION_MONTHS to one file per month and landing, in batches, and restores a month with its ids, sales and statistics', async () => {
    const a = await createLanding(db(), { name: 'Archives A' });
    const b = await createLanding(db(), { name: 'Archives B' });
    // 5,100 leads of A in March 2024 (two batches of removal), a few of B, recent leads of both that stay.
    await db().query(
      `INSERT INTO leads (landing_id, source, created_at, phone, departement, data)
       SELECT $1, CASE WHEN i % 3 = 0 THEN 'facebook' ELSE 'google' END, '2024-03-01T00:30:00+01:00'::timestamptz + i * interval '6 minutes',
              '06' || lpad(i::text, 8, '0'), '34', jsonb_build_object('nom', 'Ancien ' || i, 'note', E'guillemet " virgule , ligne\\nsuite')
         FROM generate_series(1, 5100) AS i`,
      [a.id],
    );
    const [sold] = await insertLeads(db(), b.id, [{ nom: 'Vendu', code_postal: '75011', created_at: '2024-03-31T23:30:00+02:00', status: 'extracted' }]);
    const [copy] = await insertLeads(db(), b.id, [{ nom: 'Copie', code_postal: '13001', created_at: '2024-05-02T10:00:00+02:00' }]);
    await db().query(`UPDATE leads SET entry_status = 'converted', convert = $2 WHERE id = $1`, [sold, copy]);
    const customer = (await db().query<{ id: number }>(`INSERT INTO customers (name, email) VALUES ('Client archive', 'archive@client.test') RETURNING id`))
      .rows[0].id;
    await db().query(
      `INSERT INTO lead_sales (lead_id, customer_id, channel, price_cents, sold_at) VALUES ($1, $2, 'export', 1250, '2024-04-01T09:00:00+02:00')`,
      [sold, customer],
    );
    const recent = await insertLeads(db(), a.id, [{ nom: 'Récent' }, { nom: 'Récent aussi', created_at: new Date(Date.now() - 86_400_000).toISOString() }]);
    const landings = [a.id, b.id];
    const before = await snapshot(landings);
    const statsBefore = await monthStats(landings);
    expect(statsBefore).toEqual(await recount(landings));

    const run = await server.request('POST', '/api/exports/archives/run', { token });
    expect(run.status).toBe(200);
    expect(await json(run)).toEqual({ data: { months: ['2024-03', '2024-05'], leads: 5102 }, message: 'Anciens leads archivés' });
    expect((await db().query<{ id: number }>('SELECT id FROM leads WHERE landing_id = ANY($1::int[]) ORDER BY id', [landings])).rows.map((r) => r.id)).toEqual(
      recent,
    );
    expect((await db().query('SELECT 1 FROM lead_sales WHERE customer_id = $1', [customer])).rowCount).toBe(0);
    expect(await monthStats(landings)).toEqual(await recount(landings));
    const archived = await persons(landings);
    expect(archived.kept).toEqual(archived.held);
    const listed = await archives();
    expect(listed.retention_months).toBe(12);
    const mine = listed.data.filter((f) => landings.includes(f.landing_id));
    expect(mine.map((f) => [f.month, f.landing_id, f.leads, f.state])).toEqual([
      ['2024-03', a.id, 5100, 'archived'],
      ['2024-03', b.id, 1, 'archived'],
      ['2024-05', b.id, 1, 'archived'],
    ]);
    expect(mine.every((f) => f.bytes > 0)).toBe(true);
    // A second run finds nothing left to archive.
    expect(await json(await server.request('POST', '/api/exports/archives/run', { token }))).toEqual({
      data: { months: [], leads: 0 },
      message: 'Aucun lead à archiver',
    });

    // Restoring May first: the copy comes back; March then links its original to it again.
    expect(await json(await server.request('POST', '/api/exports/archives/2024-05/restore', { token }))).toEqual({
      data: { month: '2024-05', leads: 1 },
      message: 'Leads restaurés',
    });
    expect(await json(await server.request('POST', '/api/exports/archives/2024-03/restore', { token }))).toEqual({
      data: { month: '2024-03', leads: 5101 },
      message: 'Leads restaurés',
    });
    expect(await snapshot(landings)).toEqual(before);
    expect(await monthStats(landings)).toEqual(statsBefore);
    const restored = await persons(landings);
    expect(restored.kept).toHaveLength(5102);
    expect(restored.kept).toEqual(restored.held);
    expect((await archives()).data.filter((f) => landings.includes(f.landing_id)).map((f) => f.state)).toEqual(['restored', 'restored', 'restored']);
    const keys = (await db().query<{ storage_key: string }>('SELECT storage_key FROM lead_archives WHERE landing_id = ANY($1::int[])', [landings])).rows;
    for (const { storage_key } of keys) expect(await exportStorage(server.ctx.config).get(storage_key)).toBeUndefined();
    // Restored months stay in the database: the job leaves them.
    expect((await json<{ data: { leads: number } }>(await server.request('POST', '/api/exports/archives/run', { token }))).data.leads).toBe(0);
  });

  it('restores a month all or nothing: a damaged file leaves every landing of the month archived', async () => {
    const a = await createLanding(db(), { name: 'Intacte' });
    const b = await createLanding(db(), { name: 'Abîmée' });
    await insertLeads(db(), a.id, [{ nom: 'Un', created_at: '2023-02-10T10:00:00+01:00' }]);
    await insertLeads(db(), b.id, [{ nom: 'Deux', created_at: '2023-02-11T10:00:00+01:00' }]);
    expect((await json<{ data: { months: string[] } }>(await server.request('POST', '/api/exports/archives/run', { token }))).data.months).toEqual(['2023-02']);
    const { storage_key } = (await db().query<{ storage_key: string }>('SELECT storage_key FROM lead_archives WHERE landing_id = $1', [b.id])).rows[0];
    const upload = await exportStorage(server.ctx.config).open(storage_key);
    upload.stream.write('pas du gzip');
    await upload.finish();

    const res = await server.request('POST', '/api/exports/archives/2023-02/restore', { token });
    expect(res.status).toBe(409);
    expect((await json<{ message: string }>(res)).message).toMatch(
      new RegExp(`^Le fichier d'archive ${storage_key} est manquant ou illisible, rien n'a été restauré : .+$`),
    );
    expect((await db().query('SELECT 1 FROM leads WHERE landing_id = ANY($1::int[])', [[a.id, b.id]])).rowCount).toBe(0);
    expect((await archives()).data.filter((f) => f.month === '2023-02').map((f) => f.state)).toEqual(['archived', 'archived']);
  });

  it('refuses clearly: an unknown month, a malformed one, a user who is not an administrator', async () => {
    const none = await server.request('POST', '/api/exports/archives/2001-01/restore', { token });
    expect(none.status).toBe(404);
    expect((await json<{ message: string }>(none)).message).toBe('Aucune archive de leads pour 2001-01.');
    const bad = await server.request('POST', '/api/exports/archives/mars-2024/restore', { token });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await json(bad))).toContain('Mois invalide');
    const staff = await normalUserToken(server);
    expect((await server.request('POST', '/api/exports/archives/run', { token: staff })).status).toBe(403);
  });
});
