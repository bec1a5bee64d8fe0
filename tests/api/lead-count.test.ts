// The list's total over many leads: exact without column filters, estimated from a sample with
// them (and exact through GET …/count), exact again when the list fits in its first page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadCountResponse, LeadListResponse } from '../../src/api/leads/contract';
import { COUNT_SAMPLE } from '../../server/services/leads/list';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, json } from './leads-support';

let server: TestServer;
let token: string;
let big: { id: number };
let small: { id: number };
const N = 3 * COUNT_SAMPLE;

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
  big = await createLanding(server.ctx.db);
  small = await createLanding(server.ctx.db);
  // Every third lead is a Martin with a gas heating: N / 3 of them, spread evenly over time.
  await server.ctx.db.query(
    `INSERT INTO leads (landing_id, created_at, source, data)
     SELECT $1, now() - (g || ' seconds')::interval, 'google',
            jsonb_build_object('nom', CASE WHEN g % 3 = 0 THEN 'Martin' ELSE 'Durand' END || g, 'chauffage', 'Gaz')
       FROM generate_series(1, $2::int) g`,
    [big.id, N],
  );
  await server.ctx.db.query(
    `INSERT INTO leads (landing_id, source, data) SELECT $1, 'sms', jsonb_build_object('nom', 'Martin' || g) FROM generate_series(1, 40) g`,
    [small.id],
  );
}, 120_000);
afterAll(() => server.close());

const get = async <T>(path: string) => {
  const res = await server.request('GET', path, { token });
  expect(res.status, path).toBe(200);
  return json<T>(res);
};

describe('the total of a lead list', () => {
  it('is exact without column filters, on every page', async () => {
    for (const offset of [0, 150]) {
      const page = await get<LeadListResponse>(`/api/landings/data/${big.id}?_limit=150&_offset=${offset}`);
      expect(page).toMatchObject({ total: N, total_exact: true });
    }
  });

  it('is an estimate from the newest leads with column filters, and exact through …/count', async () => {
    const query = `filter[nom]=martin&in[chauffage]=Gaz`;
    const page = await get<LeadListResponse>(`/api/landings/data/${big.id}?_limit=150&${query}`);
    expect(page.total_exact).toBe(false);
    expect(Math.abs(page.total - N / 3)).toBeLessThan(N / 30);
    expect(page.data.every((r) => String(r.nom).startsWith('Martin'))).toBe(true);
    expect(await get<LeadCountResponse>(`/api/landings/data/${big.id}/count?${query}`)).toEqual({ total: N / 3 });
    // Two landings: the small one is counted whole, the big one estimated.
    const both = await get<LeadListResponse>(`/api/landings/data/${big.id},${small.id}?_limit=150&filter[nom]=martin`);
    expect(both.total_exact).toBe(false);
    expect(Math.abs(both.total - (N / 3 + 40))).toBeLessThan(N / 30);
    expect(await get<LeadCountResponse>(`/api/landings/data/${big.id},${small.id}/count?filter[nom]=martin`)).toEqual({ total: N / 3 + 40 });
  });

  it('is exact when the first page holds the whole list, or when the filters read fewer leads than the sample', async () => {
    const few = await get<LeadListResponse>(`/api/landings/data/${big.id}?_limit=150&filter[nom]=Martin300`);
    expect(few).toMatchObject({ total: 5, total_exact: true }); // Martin300, Martin3000, 3003, 3006, 3009
    const second = await get<LeadListResponse>(`/api/landings/data/${small.id}?_limit=10&_offset=10&filter[nom]=martin`);
    expect(second).toMatchObject({ total: 40, total_exact: true });
  });

  it('stays exact through status changes and deletions', async () => {
    const ids = (await get<LeadListResponse>(`/api/landings/data/${small.id}?_limit=30`)).data.map((r) => r.id);
    const moved = await server.request('POST', '/api/landings/data', { body: { entry_status: 'archived', leads: ids.slice(0, 20) }, token });
    expect(moved.status).toBe(200);
    expect((await server.request('DELETE', '/api/landings/data', { body: { leads: ids.slice(20) }, token })).status).toBe(200);
    expect(await get<LeadListResponse>(`/api/landings/data/${small.id}?_limit=5`)).toMatchObject({ total: 10, total_exact: true });
    expect(await get<LeadListResponse>(`/api/landings/data/${small.id}?_limit=5&entry_status=archived`)).toMatchObject({ total: 20, total_exact: true });
    expect(await get<LeadCountResponse>(`/api/landings/data/${big.id},${small.id}/count?entry_status=archived`)).toEqual({ total: 20 });
  });

  it('counts with the same rules as the list: unknown columns 422, unknown landings 404, no token 401', async () => {
    expect((await server.request('GET', `/api/landings/data/${big.id}/count?filter[inconnue]=x`, { token })).status).toBe(422);
    expect((await server.request('GET', `/api/landings/data/987654/count`, { token })).status).toBe(404);
    expect((await server.request('GET', `/api/landings/data/${big.id}/count`)).status).toBe(401);
    expect(await get<LeadCountResponse>(`/api/landings/data/${big.id}/count?entry_status=archived`)).toEqual({ total: 0 });
  });
});
