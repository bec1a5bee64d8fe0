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
let places: { id: number };
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
  // Departments 30, 34 and 13 in turn, zones H1 and H2 in turn: N / 6 of each pair; sources google,
  // facebook, sms and autre in turn; heatings (a select column) Gaz, Fioul, Électrique and none in turn.
  places = await createLanding(server.ctx.db);
  await server.ctx.db.query(
    `INSERT INTO leads (landing_id, created_at, source, departement, zone_climatique, data)
     SELECT $1, now() - (g || ' hours')::interval, (ARRAY['google', 'facebook', 'sms', 'autre'])[g % 4 + 1],
            (ARRAY['30', '34', '13'])[g % 3 + 1], (ARRAY['H1', 'H2'])[g % 2 + 1],
            jsonb_strip_nulls(jsonb_build_object('nom', CASE WHEN g % 3 = 0 THEN 'Martin' ELSE 'Durand' END || g,
                                                 'chauffage', (ARRAY['Gaz', 'Fioul', 'Électrique', NULL])[g % 5 % 4 + 1]))
       FROM generate_series(1, $2::int) g`,
    [places.id, N],
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
    // Filters left empty filter nothing.
    const empty = `filter[nom]=&date[created_at]=${encodeURIComponent('<>')}`;
    expect(await get<LeadListResponse>(`/api/landings/data/${big.id}?_limit=150&${empty}`)).toMatchObject({ total: N, total_exact: true });
    expect(await get<LeadCountResponse>(`/api/landings/data/${big.id}/count?${empty}`)).toEqual({ total: N });
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

  it('is exact with filters on the department, the zone, the source, a select column, the landing and the status alone, counted from the monthly statistics', async () => {
    const truth = async (condition: string, params: unknown[] = []) =>
      (
        await server.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM leads WHERE landing_id = $1 AND entry_status = 'new' AND ${condition}`, [
          places.id,
          ...params,
        ])
      ).rows[0].n;
    const list = await get<LeadListResponse>(`/api/landings/data/${places.id}?_limit=150&in[departement]=30&in[departement]=34`);
    expect(list).toMatchObject({ total: (2 * N) / 3, total_exact: true });
    expect(list.data.every((r) => ['30', '34'].includes(String(r.departement)))).toBe(true);
    const cases: Array<[string, string, unknown[]]> = [
      ['in[departement]=13&in[zone_climatique]=H1', "departement = '13' AND zone_climatique = 'H1'", []],
      ['filter[departement]=3', "departement LIKE '%3%'", []],
      ['filter[zone_climatique]=h2&in[departement]=30', "zone_climatique = 'H2' AND departement = '30'", []],
      ['in[departement]=99', 'false', []],
      ['in[source]=facebook&in[source]=sms', "source IN ('facebook', 'sms')", []],
      ['filter[source]=OO&in[departement]=13', "source LIKE '%oo%' AND departement = '13'", []],
      ['in[source]=taboola', 'false', []],
      [`in[landing]=${places.id}&in[entry_status]=new&in[source]=autre`, "source = 'autre'", []],
      ['in[chauffage]=Gaz', "data->>'chauffage' = 'Gaz'", []],
      [`in[chauffage]=Gaz&in[chauffage]=${encodeURIComponent('Électrique')}`, "data->>'chauffage' IN ('Gaz', 'Électrique')", []],
      ['in[chauffage]=gaz', 'false', []],
      [`in[landing]=${places.id}&in[chauffage]=Fioul`, "data->>'chauffage' = 'Fioul'", []],
    ];
    for (const [query, condition, params] of cases) {
      expect(await get<LeadCountResponse>(`/api/landings/data/${places.id}/count?${query}`), query).toEqual({ total: await truth(condition, params) });
      expect(await get<LeadListResponse>(`/api/landings/data/${places.id}?_limit=10&${query}`), query).toMatchObject({
        total: await truth(condition, params),
        total_exact: true,
      });
    }
    // Ranges of creation days (Paris days), alone and beside the other columns: whole months from
    // the statistics, the days at either end from the leads.
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toLocaleDateString('sv-SE', { timeZone: 'Europe/Paris' });
    const within = (first: string | null, last: string | null) =>
      [
        first ? `created_at >= ('${first}'::date::timestamp AT TIME ZONE 'Europe/Paris')` : 'true',
        last ? `created_at < (('${last}'::date + 1)::timestamp AT TIME ZONE 'Europe/Paris')` : 'true',
      ].join(' AND ');
    // A day of the month k months ago (Paris), or that month's last day: ranges whose cut months
    // are counted from their days in the range or from the month less its other days.
    const monthDay = (k: number, dayOfMonth: number | 'last') => {
      const [year, month] = day(0).split('-').map(Number) as [number, number];
      const index = year * 12 + month - 1 - k;
      const last = new Date(Date.UTC(Math.floor(index / 12), (index % 12) + 1, 0)).getUTCDate();
      return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-${String(dayOfMonth === 'last' ? last : dayOfMonth).padStart(2, '0')}`;
    };
    const ranges: Array<[string | null, string | null]> = [
      [day(200), day(20)],
      [day(100), null],
      [null, day(40)],
      [day(45), day(41)],
      [day(90), day(0)],
      [monthDay(3, 3), monthDay(2, 27)],
      [monthDay(4, 20), monthDay(3, 5)],
      [monthDay(5, 4), monthDay(5, 25)],
      [monthDay(5, 10), monthDay(5, 12)],
      [monthDay(6, 1), monthDay(5, 26)],
      [monthDay(3, 1), monthDay(3, 'last')],
      [monthDay(4, 2), monthDay(4, 'last')],
      [monthDay(6, 28), monthDay(6, 'last')],
      [null, monthDay(2, 26)],
      [monthDay(4, 2), null],
      [monthDay(2, 20), monthDay(3, 5)],
    ];
    for (const [first, last] of ranges) {
      const text = encodeURIComponent(`${first ?? ''}<>${last ?? ''}`);
      const byDays: Array<[string, string]> = [
        [`date[created_at]=${text}`, within(first, last)],
        [`filter[created_at]=${text}&in[departement]=30`, `${within(first, last)} AND departement = '30'`],
        [`date[created_at]=${text}&in[source]=sms&filter[zone_climatique]=1`, `${within(first, last)} AND source = 'sms' AND zone_climatique = 'H1'`],
        [`date[created_at]=${text}&in[chauffage]=Fioul`, `${within(first, last)} AND data->>'chauffage' = 'Fioul'`],
      ];
      for (const [query, condition] of byDays) {
        const truthful = await truth(condition);
        expect(await get<LeadCountResponse>(`/api/landings/data/${places.id}/count?${query}`), query).toEqual({ total: truthful });
        expect(await get<LeadListResponse>(`/api/landings/data/${places.id}?_limit=10&${query}`), query).toMatchObject({ total: truthful, total_exact: true });
      }
    }
    // Two ranges of days, or a text searched in the dates, are counted from the leads.
    const twice = `date[created_at]=${encodeURIComponent(`${day(100)}<>`)}&filter[created_at]=${encodeURIComponent(`<>${day(50)}`)}`;
    expect(await get<LeadCountResponse>(`/api/landings/data/${places.id}/count?${twice}`)).toEqual({ total: await truth(within(day(100), day(50))) });

    // Up to a ceiling: the leads above it are taken off.
    const ceiling = list.data[20]!.id;
    expect(await get<LeadCountResponse>(`/api/landings/data/${places.id}/count?in[departement]=34&_ceiling=${ceiling}`)).toEqual({
      total: await truth("departement = '34' AND id <= $2", [ceiling]),
    });
    // With a form column beside them, the list estimates and …/count reads the leads.
    const mixed = await get<LeadListResponse>(`/api/landings/data/${places.id}?_limit=150&in[departement]=30&filter[nom]=martin`);
    expect(mixed.total_exact).toBe(false);
    expect(await get<LeadCountResponse>(`/api/landings/data/${places.id}/count?in[departement]=30&filter[nom]=martin`)).toEqual({
      total: await truth("departement = '30' AND data->>'nom' ILIKE '%martin%'"),
    });
    // So does a select column beside the department, or searched as text.
    for (const [query, condition] of [
      ['in[chauffage]=Gaz&in[departement]=13', "data->>'chauffage' = 'Gaz' AND departement = '13'"],
      ['filter[chauffage]=a', "data->>'chauffage' ILIKE '%a%'"],
    ]) {
      expect((await get<LeadListResponse>(`/api/landings/data/${places.id}?_limit=150&${query}`)).total_exact, query).toBe(false);
      expect(await get<LeadCountResponse>(`/api/landings/data/${places.id}/count?${query}`), query).toEqual({ total: await truth(condition) });
    }

    // The select column's counts follow a status change and a deletion.
    const gas = (await get<LeadListResponse>(`/api/landings/data/${places.id}?_limit=40&in[chauffage]=Gaz`)).data.map((r) => r.id);
    expect((await server.request('POST', '/api/landings/data', { body: { entry_status: 'archived', leads: gas.slice(0, 30) }, token })).status).toBe(200);
    expect((await server.request('DELETE', '/api/landings/data', { body: { leads: gas.slice(30) }, token })).status).toBe(200);
    expect(await get<LeadCountResponse>(`/api/landings/data/${places.id}/count?in[chauffage]=Gaz`)).toEqual({
      total: await truth("data->>'chauffage' = 'Gaz'"),
    });
    expect(await get<LeadCountResponse>(`/api/landings/data/${places.id}/count?in[chauffage]=Gaz&entry_status=archived`)).toEqual({ total: 30 });
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
    expect(await get<LeadCountResponse>(`/api/landings/data/${big.id},${small.id}/count?entry_status=archived&in[source]=sms`)).toEqual({ total: 20 });
    expect(await get<LeadCountResponse>(`/api/landings/data/${big.id},${small.id}/count?in[source]=sms`)).toEqual({ total: 10 });
  });

  it('counts with the same rules as the list: unknown columns 422, unknown landings 404, no token 401', async () => {
    expect((await server.request('GET', `/api/landings/data/${big.id}/count?filter[inconnue]=x`, { token })).status).toBe(422);
    expect((await server.request('GET', `/api/landings/data/987654/count`, { token })).status).toBe(404);
    expect((await server.request('GET', `/api/landings/data/${big.id}/count`)).status).toBe(401);
    expect(await get<LeadCountResponse>(`/api/landings/data/${big.id}/count?entry_status=archived`)).toEqual({ total: 0 });
  });
});
