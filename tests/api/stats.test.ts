import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DepartmentStat } from '../../src/api/leads/contract';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json } from './leads-support';

let server: TestServer;
let token: string;
let a: { id: number };
let b: { id: number };

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
  a = await createLanding(server.ctx.db);
  b = await createLanding(server.ctx.db);
  const at = '2025-06-10T10:00:00Z';
  await insertLeads(server.ctx.db, a.id, [
    { code_postal: '30000', source: 'taboola', created_at: at },
    { code_postal: '30000', source: 'facebook', created_at: at, status: 'extracted' },
    { code_postal: '34000', source: 'taboola', created_at: at, status: 'converted' },
    { code_postal: '75001', source: 'google', created_at: at },
    { source: 'autre', created_at: at },
    // Outside the range: 31 Dec 2025 23:30 UTC is already 1 Jan 2026 in Paris.
    { code_postal: '30000', source: 'taboola', created_at: '2025-12-31T23:30:00Z' },
    { code_postal: '30000', source: 'taboola', created_at: '2024-12-31T22:59:00Z' },
  ]);
  await insertLeads(server.ctx.db, b.id, [{ code_postal: '30000', source: 'sms', created_at: at }]);
});
afterAll(() => server.close());

const stats = async (path: string) => {
  const res = await server.request('GET', `/api/landings/data/departement/${path}`, { token });
  return { status: res.status, body: await json<{ data: DepartmentStat[]; error?: string }>(res) };
};
const zero = { taboola: 0, facebook: 0, google: 0, sms: 0, email: 0, outbrain: 0, internal: 0, autre: 0 };

describe('department statistics', () => {
  it('counts production (every lead created in the range) by department and source', async () => {
    const { status, body } = await stats(`${a.id},${b.id}/production/2025-01-01/2025-12-31/0`);
    expect(status).toBe(200);
    expect(body.data).toEqual([
      { ...zero, departement: '', zone_climatique: '', value: 1, autre: 1 },
      { ...zero, departement: '30', zone_climatique: 'H3', value: 3, taboola: 1, facebook: 1, sms: 1 },
      { ...zero, departement: '34', zone_climatique: 'H3', value: 1, taboola: 1 },
      { ...zero, departement: '75', zone_climatique: 'H1a', value: 1, google: 1 },
    ]);
  });

  it('counts stock (new), convertis and production_extracted, and groups by climate zone', async () => {
    expect((await stats(`${a.id}/stock/2025-01-01/2025-12-31/0`)).body.data.map((r) => [r.departement, r.value])).toEqual([
      ['', 1],
      ['30', 1],
      ['75', 1],
    ]);
    expect((await stats(`${a.id}/convertis/2025-01-01/2025-12-31/false`)).body.data.map((r) => [r.departement, r.value])).toEqual([['34', 1]]);
    expect((await stats(`${a.id}/production_extracted/2025-01-01/2025-12-31/0`)).body.data.map((r) => [r.departement, r.value])).toEqual([['30', 1]]);
    const zones = (await stats(`${a.id},${b.id}/production/2025-01-01/2025-12-31/1`)).body.data;
    expect(zones).toEqual([
      { ...zero, departement: '', zone_climatique: '', value: 1, autre: 1 },
      { ...zero, departement: '', zone_climatique: 'H1a', value: 1, google: 1 },
      { ...zero, departement: '', zone_climatique: 'H3', value: 4, taboola: 2, facebook: 1, sms: 1 },
    ]);
    expect((await stats(`${a.id}/production/2026-01-01/2026-01-01/true`)).body.data.map((r) => r.value)).toEqual([1]);
  });

  it('adds whole months from the monthly counts to the days around them, read from the leads', async () => {
    const values = async (range: string) => (await stats(`${a.id}/production/${range}/0`)).body.data.reduce((n, r) => n + r.value, 0);
    expect(await values('2025-06-10/2025-06-10')).toBe(5);
    expect(await values('2025-06-11/2025-06-30')).toBe(0);
    expect(await values('2025-05-15/2025-07-15')).toBe(5);
    expect(await values('2025-06-01/2025-06-30')).toBe(5);
    expect(await values('2025-12-31/2026-01-31')).toBe(1);
  });

  it('follows status changes and deletions of the leads it counts', async () => {
    const { rows } = await server.ctx.db.query<{ id: number }>("SELECT id FROM leads WHERE landing_id = $1 AND departement = '75'", [a.id]);
    const stock = async () => (await stats(`${a.id}/stock/2025-01-01/2025-12-31/0`)).body.data.map((r) => [r.departement, r.value]);
    const moved = await server.request('POST', '/api/landings/data', { token, body: { entry_status: 'archived', leads: [rows[0].id] } });
    expect(moved.status).toBe(200);
    expect(await stock()).toEqual([
      ['', 1],
      ['30', 1],
    ]);
    const deleted = await server.request('DELETE', '/api/landings/data', { token, body: { leads: [rows[0].id] } });
    expect(deleted.status).toBe(200);
    const production = (await stats(`${a.id}/production/2025-01-01/2025-12-31/0`)).body.data;
    expect(production.find((r) => r.departement === '75')).toBeUndefined();
    expect(production.reduce((n, r) => n + r.value, 0)).toBe(4);
  });

  it('drops the counts of a landing deleted with its leads', async () => {
    const c = await createLanding(server.ctx.db);
    await insertLeads(server.ctx.db, c.id, [
      { code_postal: '30000', source: 'taboola', created_at: '2025-06-10T10:00:00Z' },
      { code_postal: '75001', source: 'google', created_at: '2025-07-10T10:00:00Z', status: 'extracted' },
    ]);
    await server.ctx.db.query('DELETE FROM landings WHERE id = $1', [c.id]);
    const { rows } = await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM lead_month_stats WHERE landing_id = $1', [c.id]);
    expect(rows[0].n).toBe(0);
  });

  it('refuses bad parameters with 422 and unknown landings with 404', async () => {
    for (const path of [
      `${a.id}/ventes/2025-01-01/2025-12-31/0`,
      `${a.id}/production/2025-13-01/2025-12-31/0`,
      `${a.id}/production/hier/2025-12-31/0`,
      `${a.id}/production/2025-01-01/2025-12-31/peut-etre`,
      `${a.id}/production/2025-12-31/2025-01-01/0`,
      `${a.id}/production/2025-01-01/9999-12-31/0`,
    ]) {
      expect((await stats(path)).status, path).toBe(422);
    }
    expect((await stats(`987654/production/2025-01-01/2025-12-31/0`)).status).toBe(404);
    expect((await server.request('GET', `/api/landings/data/departement/${a.id}/production/2025-01-01/2025-12-31/0`)).status).toBe(401);
  });
});
