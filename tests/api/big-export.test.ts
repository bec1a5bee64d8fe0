import Papa from 'papaparse';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BigExportAccepted, BigExportJob, ExportsResponse } from '../../src/api/exports/contract';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, json, normalUserToken } from './leads-support';

// 100,000 leads by default; BIG_EXPORT_LEADS lowers it on a slow machine.
const LEADS = Number(process.env.BIG_EXPORT_LEADS ?? 100_000);

let server: TestServer;
let token: string;
let landing: { id: number };
let other: { id: number };

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
  landing = await createLanding(server.ctx.db, { name: 'PAC Export' });
  other = await createLanding(server.ctx.db, { name: 'Autre' });
  // LEADS leads over 2025 (Paris), a third of them extracted; 1,000 in 2024 and 1,000 of another landing that must stay out.
  await server.ctx.db.query(
    `INSERT INTO leads (landing_id, entry_status, created_at, phone, data)
     SELECT $1, CASE WHEN i % 3 = 0 THEN 'extracted' ELSE 'new' END,
            timestamptz '2025-01-01 00:00:00 Europe/Paris' + (i::float / $2) * interval '364 days 23 hours',
            '06' || lpad(i::text, 8, '0'), jsonb_build_object('nom', 'Nom ' || i, 'telephone', '06' || lpad(i::text, 8, '0'), 'code_postal', '01000')
       FROM generate_series(0, $2 - 1) i`,
    [landing.id, LEADS],
  );
  await server.ctx.db.query(
    `INSERT INTO leads (landing_id, created_at, data) SELECT $1, timestamptz '2024-12-31 23:59:00 Europe/Paris', '{}' FROM generate_series(1, 1000)`,
    [landing.id],
  );
  await server.ctx.db.query(
    `INSERT INTO leads (landing_id, created_at, data) SELECT $1, timestamptz '2025-06-01 12:00:00 Europe/Paris', '{}' FROM generate_series(1, 1000)`,
    [other.id],
  );
}, 120_000);
afterAll(() => server.close());

const generate = (query: string, as = token) => server.request('POST', `/api/generate_big_export?${query}`, { token: as });
const job = async (id: number) => (await json<{ data: BigExportJob }>(await server.request('GET', `/api/big_exports/${id}`, { token }))).data;

/** Polls the job as the screen does, keeping every progress figure seen. */
async function follow(id: number, timeoutMs = 120_000) {
  const seen: number[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const current = await job(id);
    seen.push(current.written);
    if (current.state === 'done' || current.state === 'failed') return { job: current, seen };
    if (Date.now() > deadline) throw new Error(`job ${id} still ${current.state}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const statusCounts = async () =>
  (
    await server.ctx.db.query<{ entry_status: string; n: number }>(
      'SELECT entry_status, count(*)::int AS n FROM leads WHERE landing_id = $1 GROUP BY 1 ORDER BY 1',
      [landing.id],
    )
  ).rows;

describe('custom export of a year', () => {
  it(`answers 202 at once, reports progress, writes all ${LEADS} leads without changing a status, and lists the file`, async () => {
    const before = await statusCounts();
    const started = performance.now();
    const res = await generate(`landings=${landing.id}&status=new,extracted&start=2025-01-01&end=2025-12-31`);
    const answeredMs = performance.now() - started;
    expect(res.status).toBe(202);
    expect(answeredMs).toBeLessThan(2000);
    const accepted = await json<BigExportAccepted>(res);
    expect(accepted.message).toBe('Export en cours de génération');
    expect(accepted.data).toMatchObject({
      state: 'queued',
      landings: [landing.id],
      status: ['new', 'extracted'],
      start: '2025-01-01',
      end: '2025-12-31',
      format: 'csv',
      written: 0,
      export: null,
    });

    // A second request of the same user meanwhile is refused, naming the running job.
    const second = await generate(`landings=${landing.id}&status=new&start=2025-01-01&end=2025-01-31`);
    expect(second.status).toBe(409);
    const refused = await json<{ error: string; message: string; job: BigExportJob }>(second);
    expect(refused.error).toBe('conflict');
    expect(refused.message).toBe("Un export personnalisé est déjà en cours de génération : attendez sa fin avant d'en demander un autre");
    expect(refused.job.id).toBe(accepted.data.id);

    const { job: done, seen } = await follow(accepted.data.id);
    const totalMs = performance.now() - started;
    console.log(`big export of ${LEADS} leads: ${Math.round(totalMs)} ms, progress seen ${seen.length} times`);
    expect(done.state).toBe('done');
    expect(done.total).toBe(LEADS);
    expect(done.written).toBe(LEADS);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    // Progress is recorded every 250 ms and polled every 100: an export that lasts a second shows
    // some before its end. On PostgreSQL, reading two batches at once, 100,000 leads may take less.
    if (LEADS >= 50_000 && totalMs >= 1000) expect(seen.some((w) => w > 0 && w < LEADS)).toBe(true);
    expect(done.export).toMatchObject({
      big_export: true,
      count: LEADS,
      landing: [landing.id],
      filename: 'export-personnalise_2025-01-01_2025-12-31.csv',
      reinjectable: false,
    });

    const file = await fetch(server.url + done.export!.url);
    expect(file.status).toBe(200);
    const rows = Papa.parse<string[]>((await file.text()).slice(1), { delimiter: ';', skipEmptyLines: true }).data;
    expect(rows).toHaveLength(LEADS + 1);
    const ids = rows.slice(1).map((r) => Number(r[0]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(LEADS);
    expect(rows[1]![rows[0]!.indexOf('Code postal')]).toBe('01000');

    expect(await statusCounts()).toEqual(before);
    const history = await json<ExportsResponse>(await server.request('GET', '/api/exports', { token }));
    expect(history.data[0]).toMatchObject({ id: done.export!.id, big_export: true });
    const list = await json<{ data: BigExportJob[] }>(await server.request('GET', '/api/big_exports', { token }));
    expect(list.data[0]!.id).toBe(done.id);
  }, 180_000);

  it('selects by status and Paris days, in xlsx too; nothing matching ends without a file', async () => {
    const res = await generate(`landings=${landing.id},${other.id}&status=extracted&start=2025-01-01&end=2025-01-31&format=xlsx`);
    expect(res.status).toBe(202);
    const { job: done } = await follow((await json<BigExportAccepted>(res)).data.id);
    expect(done.state).toBe('done');
    const expected = (
      await server.ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM leads WHERE landing_id IN ($1, $2) AND entry_status = 'extracted'
            AND created_at >= timestamptz '2025-01-01 00:00 Europe/Paris' AND created_at < timestamptz '2025-02-01 00:00 Europe/Paris'`,
        [landing.id, other.id],
      )
    ).rows[0]!.n;
    expect(done.total).toBe(expected);
    const book = XLSX.read(new Uint8Array(await (await fetch(server.url + done.export!.url)).arrayBuffer()));
    expect(XLSX.utils.sheet_to_json(book.Sheets[book.SheetNames[0]!]!)).toHaveLength(expected);

    const empty = await generate(`landings=${other.id}&status=trashed&start=2025-01-01&end=2025-12-31`);
    const { job: nothing } = await follow((await json<BigExportAccepted>(empty)).data.id);
    expect(nothing).toMatchObject({ state: 'done', total: 0, export: null });
  }, 120_000);

  it('gives up a job whose server died, so its user may start another', async () => {
    const { rows } = await server.ctx.db.query<{ id: number }>(
      `INSERT INTO big_exports (user_id, landing_ids, statuses, start_day, end_day, book_type, state, heartbeat)
       SELECT id, ARRAY[$1::int], ARRAY['new'], '2025-01-01', '2025-01-02', 'csv', 'running', now() - interval '10 minutes' FROM users WHERE email = $2 RETURNING id`,
      [landing.id, ADMIN.email],
    );
    const res = await generate(`landings=${landing.id}&status=new&start=2025-01-01&end=2025-01-02`);
    expect(res.status).toBe(202);
    expect(await job(rows[0]!.id)).toMatchObject({ state: 'failed', error: "Interrompu : le serveur s'est arrêté pendant la génération" });
    await follow((await json<BigExportAccepted>(res)).data.id);
  });

  it('answers bad requests with 422 naming the field, unknown landings and jobs with 404', async () => {
    for (const [query, field] of [
      ['status=new&start=2025-01-01&end=2025-12-31', 'landings'],
      [`landings=abc&status=new&start=2025-01-01&end=2025-12-31`, 'landings'],
      [`landings=${landing.id}&start=2025-01-01&end=2025-12-31`, 'status'],
      [`landings=${landing.id}&status=nouveau&start=2025-01-01&end=2025-12-31`, 'status'],
      [`landings=${landing.id}&status=&start=2025-01-01&end=2025-12-31`, 'status'],
      [`landings=${landing.id}&status=new&start=2025-02-30&end=2025-12-31`, 'start'],
      [`landings=${landing.id}&status=new&start=2025-01-01`, 'end'],
      [`landings=${landing.id}&status=new&start=2025-12-31&end=2025-01-01`, 'end'],
      [`landings=${landing.id}&status=new&start=2025-01-01&end=2025-12-31&format=pdf`, 'format'],
    ] as const) {
      const res = await generate(query);
      expect(res.status, query).toBe(422);
      expect(Object.keys((await json<{ errors: Record<string, string> }>(res)).errors), query).toContain(field);
    }
    const unknown = await generate('landings=999999&status=new&start=2025-01-01&end=2025-12-31');
    expect(unknown.status).toBe(404);
    for (const id of ['999999', 'abc', '0']) expect((await server.request('GET', `/api/big_exports/${id}`, { token })).status, id).toBe(404);
  });

  it('keeps one job per user, not one for everybody', async () => {
    const staff = await normalUserToken(server);
    await server.ctx.db.query(`UPDATE users SET admin = true WHERE email LIKE 'staff-%'`);
    const mine = await generate(`landings=${other.id}&status=new&start=2025-01-01&end=2025-12-31`);
    const theirs = await generate(`landings=${other.id}&status=new&start=2025-01-01&end=2025-12-31`, staff);
    expect(mine.status).toBe(202);
    expect(theirs.status).toBe(202);
    await follow((await json<BigExportAccepted>(mine)).data.id);
    await follow((await json<BigExportAccepted>(theirs)).data.id);
  });
});
