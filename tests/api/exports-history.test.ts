import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportsResponse, ReinjectResponse } from '../../src/api/exports/contract';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json, normalUserToken } from './leads-support';
import { createCustomer, createRule } from './lives-support';
import { until } from '../support/until';

let server: TestServer;
let token: string;
let adminId: number;
let landingA: { id: number };
let landingB: { id: number };

beforeAll(async () => {
  server = await startServer({ PUBLIC_URL: 'https://console.example.test' });
  token = await server.login(ADMIN.email, ADMIN.password);
  adminId = (await json<{ data: { id: number } }>(await server.request('GET', '/api/me', { token }))).data.id;
  landingA = await createLanding(server.ctx.db, { name: 'PAC Sud' });
  landingB = await createLanding(server.ctx.db, { name: 'PV Nord' });
});
afterAll(() => server.close());

/** Sells `n` fresh leads of a landing through the real export route; answers the export id and its lead ids. */
async function sell(landingId: number, n: number, forCustomer: string | null, as = token) {
  const ids = await insertLeads(
    server.ctx.db,
    landingId,
    Array.from({ length: n }, (_, i) => ({ telephone: `06000000${String(i).padStart(2, '0')}`, code_postal: '30000' })),
  );
  const res = await server.request('POST', `/api/landings/data/${landingId}/export`, {
    token: as,
    body: { bookType: 'csv', leads: ids, for_customer: forCustomer },
  });
  expect(res.status).toBe(200);
  const tokenOf = (await json<{ data: { token: string } }>(res)).data.token;
  const { rows } = await server.ctx.db.query<{ id: number }>('SELECT id FROM exports WHERE token = $1', [tokenOf]);
  return { exportId: rows[0]!.id, ids };
}

const list = async (query = '') => {
  const res = await server.request('GET', `/api/exports${query}`, { token });
  expect(res.status, query).toBe(200);
  return json<ExportsResponse>(res);
};
const statuses = async (ids: number[]) =>
  (
    await server.ctx.db.query<{ id: number; entry_status: string; sold_to: string | null }>(
      'SELECT id, entry_status, sold_to FROM leads WHERE id = ANY($1::bigint[]) ORDER BY id',
      [ids],
    )
  ).rows;

describe('GET /api/exports', () => {
  let staffToken: string;
  let staffId: number;
  beforeAll(async () => {
    staffToken = await normalUserToken(server, 'vendeur@test.local');
    staffId = (await json<{ data: { id: number } }>(await server.request('GET', '/api/me', { token: staffToken }))).data.id;
    await sell(landingA.id, 3, 'Client Sud');
    await sell(landingB.id, 2, 'Client Nord', staffToken);
    await sell(landingA.id, 4, null, staffToken);
    // An export of last month, by the admin (Paris days).
    const old = await sell(landingB.id, 1, 'Client Sud');
    await server.ctx.db.query(`UPDATE exports SET created_at = '2026-01-15 23:30:00+00' WHERE id = $1`, [old.exportId]);
  });

  it('pages every export, newest first, with names, totals, buyers and working download links', async () => {
    const all = await list();
    expect(all.total).toBe(4);
    expect(all.total_leads).toBe(10);
    expect(all.data.map((e) => e.count)).toEqual([4, 2, 3, 1]);
    expect(all.landings).toMatchObject({ [landingA.id]: 'PAC Sud', [landingB.id]: 'PV Nord' });
    expect(all.users).toMatchObject({ [adminId]: 'Administrateur', [staffId]: 'Staff' });
    expect(all.for_customer).toEqual([{ for_customer: 'Client Nord' }, { for_customer: 'Client Sud' }]);
    const first = all.data[0]!;
    expect(first).toMatchObject({ landing: [landingA.id], user: staffId, book_type: 'csv', for_customer: null, big_export: false, reinjectable: true });
    expect(first.url).toBe(`https://console.example.test/api/exports/${first.token}/${encodeURIComponent(first.filename)}`);
    const file = await fetch(server.url + new URL(first.url).pathname);
    expect(file.status).toBe(200);
    expect((await file.text()).trim().split('\r\n')).toHaveLength(5);

    const page = await list('?_limit=2&_offset=2');
    expect(page.data.map((e) => e.count)).toEqual([3, 1]);
    expect(page.total).toBe(4);
    expect(page.total_leads).toBe(10);
  });

  it('filters by landings, author, creation days (Paris) and buyer, and sums the selection', async () => {
    expect((await list(`?landing_id=${landingB.id}`)).data.map((e) => e.count)).toEqual([2, 1]);
    expect((await list(`?landing_id=${landingA.id},${landingB.id}`)).total).toBe(4);
    const byStaff = await list(`?user_id=${staffId}`);
    expect(byStaff.data.map((e) => e.count)).toEqual([4, 2]);
    expect(byStaff.total_leads).toBe(6);
    expect((await list('?user_id=0')).total).toBe(4);
    expect((await list('?for_customer=Client%20Sud')).data.map((e) => e.count)).toEqual([3, 1]);
    // 2026-01-15 23:30 UTC is the 16th in Paris.
    expect((await list('?created_at=2026-01-16<>2026-01-16')).data.map((e) => e.count)).toEqual([1]);
    expect((await list('?created_at=2026-01-15<>2026-01-15')).total).toBe(0);
    expect((await list('?created_at=<>2026-02-01')).total).toBe(1);
    expect((await list('?created_at=2026-02-01<>')).total).toBe(3);
    const none = await list('?landing_id=999999&user_id=&created_at=&for_customer=');
    expect(none).toMatchObject({ data: [], total: 0, total_leads: 0 });
  });

  it('answers malformed filters with 422 naming the field', async () => {
    for (const [query, field] of [
      ['?landing_id=abc', 'landing_id'],
      ['?landing_id=1,,2', 'landing_id'],
      ['?user_id=-1', 'user_id'],
      ['?user_id=1e3', 'user_id'],
      ['?created_at=2026-13-01<>', 'created_at'],
      ['?created_at=hier', 'created_at'],
      ['?_limit=0', '_limit'],
      ['?_limit=501', '_limit'],
      ['?_offset=-5', '_offset'],
      ['?for_customer=' + 'x'.repeat(300), 'for_customer'],
    ] as const) {
      const res = await server.request('GET', `/api/exports${query}`, { token });
      expect(res.status, query).toBe(422);
      const body = await json<{ error: string; errors: Record<string, string> }>(res);
      expect(body.error).toBe('validation_failed');
      expect(Object.keys(body.errors), query).toContain(field);
    }
    const repeated = await server.request('GET', '/api/exports?user_id=1&user_id=2', { token });
    expect(repeated.status).toBe(422);
    // An end before the start says so, instead of an empty history that looks like no export.
    const reversed = await server.request('GET', '/api/exports?created_at=2026-12-31<>2026-01-01', { token });
    expect(reversed.status).toBe(422);
    expect((await json<{ errors: Record<string, string> }>(reversed)).errors).toEqual({ created_at: 'La date de fin précède la date de début' });
  });
});

describe('POST /api/exports/insert/:id', () => {
  it('puts the leads still extracted under the export back to new, unsold, audited; the others stay', async () => {
    const { exportId, ids } = await sell(landingA.id, 5, 'Client Retour');
    // One lead was archived since, another sold again under a newer export.
    await server.request('POST', '/api/landings/data', { token, body: { entry_status: 'archived', leads: [ids[0]] } });
    await server.ctx.db.query(`UPDATE leads SET entry_status = 'new' WHERE id = $1`, [ids[1]]);
    const resold = await server.request('POST', `/api/landings/data/${landingA.id}/export`, {
      token,
      body: { bookType: 'csv', leads: [ids[1]], for_customer: 'Autre' },
    });
    expect(resold.status).toBe(200);

    const res = await server.request('POST', `/api/exports/insert/${exportId}`, { token });
    expect(res.status).toBe(200);
    expect(await json<ReinjectResponse>(res)).toEqual({ data: { count: 3 }, message: 'Leads insérés' });
    expect(await statuses(ids)).toEqual([
      { id: ids[0], entry_status: 'archived', sold_to: 'Client Retour' },
      { id: ids[1], entry_status: 'extracted', sold_to: 'Autre' },
      ...ids.slice(2).map((id) => ({ id, entry_status: 'new', sold_to: null })),
    ]);
    const audit = await server.ctx.db.query<{ count: number; details: { export_id: number } }>(
      `SELECT count, details FROM audit_log WHERE action = 'exports.reinject'`,
    );
    expect(audit.rows).toEqual([{ count: 3, details: { export_id: exportId } }]);
    expect((await list()).data.find((e) => e.id === exportId)!.reinjectable).toBe(false);

    const again = await server.request('POST', `/api/exports/insert/${exportId}`, { token });
    expect(again.status).toBe(409);
    expect((await json<{ message: string }>(again)).message).toContain('rien à réinjecter');
  });

  /** A landing whose leads each of these customers takes live (a rule of 100 a day each). */
  async function landingWithBuyers(name: string, buyers: string[]) {
    const landing = await createLanding(server.ctx.db, { name });
    for (const buyer of buyers) {
      const customer = await createCustomer(server, token, { name: buyer });
      await createRule(server, token, { customer_id: customer, landings: [landing.id], leads_number: 100 });
    }
    return landing;
  }

  it('offers the re-injected leads to the delivery rules again, never to the customer who returned them', async () => {
    const landing = await landingWithBuyers('PAC Livraison', ['Client Rendu', 'Client Preneur']);
    const { exportId, ids } = await sell(landing.id, 6, 'client rendu ');
    const res = await server.request('POST', `/api/exports/insert/${exportId}`, { token });
    expect(await json<ReinjectResponse>(res)).toEqual({ data: { count: 6 }, message: 'Leads insérés' });
    await until(async () => (await statuses(ids)).every((r) => r.entry_status === 'extracted'), 30_000, 'delivery');
    expect(new Set((await statuses(ids)).map((r) => r.sold_to))).toEqual(new Set(['Client Preneur']));
    // Delivered by the engine, they are no longer under the returned export.
    const again = await server.request('POST', `/api/exports/insert/${exportId}`, { token });
    expect(again.status).toBe(409);
  });

  it('knows the returning customer however the buyer was typed: accents, apostrophes, spaces', async () => {
    const landing = await landingWithBuyers('PAC Livraison bis', ['Rénov’Expert Sud', 'Autre Preneur']);
    // 'Vendu à' is typed freely: without the accent, with a straight apostrophe, a double space.
    const { exportId, ids } = await sell(landing.id, 4, "RENOV'EXPERT  sud");
    expect((await server.request('POST', `/api/exports/insert/${exportId}`, { token })).status).toBe(200);
    await until(async () => (await statuses(ids)).every((r) => r.entry_status === 'extracted'), 30_000, 'delivery');
    expect(new Set((await statuses(ids)).map((r) => r.sold_to))).toEqual(new Set(['Autre Preneur']));
  });

  it('answers 404 for an unknown or malformed id, 409 for a custom export', async () => {
    for (const id of ['999999', 'abc', '0', '-1', '1.5', '99999999999']) {
      const res = await server.request('POST', `/api/exports/insert/${id}`, { token });
      expect(res.status, id).toBe(404);
      expect(await res.json()).toEqual({ error: 'not_found', message: 'Export introuvable' });
    }
    const { rows } = await server.ctx.db.query<{ id: number }>(
      `INSERT INTO exports (token, filename, book_type, big_export) VALUES ('big-token-reinject', 'x.csv', 'csv', true) RETURNING id`,
    );
    const big = await server.request('POST', `/api/exports/insert/${rows[0]!.id}`, { token });
    expect(big.status).toBe(409);
    await server.ctx.db.query('DELETE FROM exports WHERE id = $1', [rows[0]!.id]);
  });

  it('is all or nothing: a failure on one lead leaves every lead extracted', async () => {
    const { exportId, ids } = await sell(landingB.id, 6, 'Client Atomique');
    await server.ctx.db.exec(`
      CREATE FUNCTION fail_on_lead() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.id = ${ids[4]} AND NEW.entry_status = 'new' THEN RAISE EXCEPTION 'panne simulée'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER fail_on_lead BEFORE UPDATE ON leads FOR EACH ROW EXECUTE FUNCTION fail_on_lead();`);
    try {
      const res = await server.request('POST', `/api/exports/insert/${exportId}`, { token });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: 'internal_error', message: 'Une erreur est survenue' });
    } finally {
      await server.ctx.db.exec('DROP TRIGGER fail_on_lead ON leads; DROP FUNCTION fail_on_lead();');
    }
    expect(new Set((await statuses(ids)).map((r) => r.entry_status))).toEqual(new Set(['extracted']));
    expect(
      (await server.ctx.db.query(`SELECT 1 FROM audit_log WHERE action = 'exports.reinject' AND (details->>'export_id')::int = $1`, [exportId])).rows,
    ).toHaveLength(0);
  });

  it('under a concurrent status change, each lead is either re-injected (and counted) or changed, never both nor half', async () => {
    for (let round = 0; round < 3; round++) {
      const { exportId, ids } = await sell(landingA.id, 40, 'Client Course');
      const [reinjected, archived] = await Promise.all([
        server.request('POST', `/api/exports/insert/${exportId}`, { token }),
        server.request('POST', '/api/landings/data', {
          token,
          body: { entry_status: 'archived', from_status: 'extracted', leads: ids.filter((_, i) => i % 2 === 0) },
        }),
      ]);
      expect(archived.status).toBe(200);
      const archivedCount = (await json<{ data: { count: number } }>(archived)).data.count;
      const rows = await statuses(ids);
      const nowNew = rows.filter((r) => r.entry_status === 'new').length;
      const nowArchived = rows.filter((r) => r.entry_status === 'archived').length;
      // Half the leads are not in the archive's selection, so the re-injection always finds some.
      expect(reinjected.status).toBe(200);
      expect((await json<ReinjectResponse>(reinjected)).data.count).toBe(nowNew);
      expect(nowArchived).toBe(archivedCount);
      expect(nowNew + nowArchived).toBe(40);
      expect(rows.every((r) => (r.entry_status === 'new' ? r.sold_to === null : r.entry_status === 'archived'))).toBe(true);
    }
  });
});

describe('admin only', () => {
  it('refuses a normal user with 403 on every exports route, and changes nothing', async () => {
    const staff = await normalUserToken(server);
    const { exportId, ids } = await sell(landingB.id, 2, 'Client Interdit');
    for (const [method, path] of [
      ['GET', '/api/exports'],
      ['POST', `/api/exports/insert/${exportId}`],
      ['POST', `/api/generate_big_export?landings=${landingA.id}&status=new&start=2026-01-01&end=2026-12-31`],
      ['GET', '/api/big_exports'],
      ['GET', '/api/big_exports/1'],
    ] as const) {
      const res = await server.request(method, path, { token: staff });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await res.json()).toEqual({ error: 'forbidden', message: 'Accès réservé aux administrateurs' });
    }
    expect(new Set((await statuses(ids)).map((r) => r.entry_status))).toEqual(new Set(['extracted']));
    expect((await server.ctx.db.query('SELECT 1 FROM big_exports')).rows).toHaveLength(0);
  });
});
