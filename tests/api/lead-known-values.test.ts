// lead_known_values (migrations 131, 133): the UTM values and presale pages each landing's leads
// have had, which a 'contains' filter on one of those columns reads first, to answer a text no
// value holds without reading the tab.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadCountResponse, LeadListResponse } from '../../src/api/leads/contract';
import { Params } from '../../server/db/params';
import { leadConditions } from '../../server/services/leads/filters';
import { getLanding } from '../../server/services/leads/landings';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json, postIntake } from './leads-support';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(() => server.close());

const db = () => server.ctx.db;
const post = (path: string, body: unknown) => server.request('POST', path, { body, token });
const get = async <T>(path: string) => json<T>(await server.request('GET', path, { token }));

/** Each landing's values that leads hold and that lead_known_values lacks. */
async function missing() {
  const { rows } = await db().query(
    `SELECT DISTINCT l.landing_id, u.name, u.value
       FROM leads l
       CROSS JOIN LATERAL (VALUES ('utm_source', l.utm_source), ('utm_medium', l.utm_medium), ('utm_campaign', l.utm_campaign), ('url_presale', l.url_presale)) u (name, value)
      WHERE u.value IS NOT NULL
     EXCEPT SELECT landing_id, name, value FROM lead_known_values`,
  );
  return rows;
}

describe("a landing's known UTM values and presale pages", () => {
  it('follow every way a lead is stored or moved, values longer than an index entry included', async () => {
    const a = await createLanding(db());
    const b = await createLanding(db());
    const direct = await insertLeads(db(), a.id, [{ telephone: '0611000001' }, { telephone: '0611000002' }]);
    await db().query(`UPDATE leads SET utm_source = 'Direct', utm_campaign = repeat('é', 4000) WHERE id = $1`, [direct[0]]);
    const form = { nom: 'Intake', telephone: '06 11 00 00 03', code_postal: '75001', email: 'intake@x.fr' };
    const intake = { ...form, utm_source: 'Facebook', utm_medium: 'paid_social', utm_campaign: 'printemps', url_presale: 'https://exemple.fr/article/pac' };
    expect((await postIntake(server, a.key, intake)).status).toBe(201);
    const imported = await post(`/api/landings/${a.id}/import/excel`, {
      form_import_from: 'Partenaire',
      data: [{ nom: 'Import', telephone: '0611000004', code_postal: '30000', utm_source: 'newsletter', utm_campaign: 'x'.repeat(5000) }],
    });
    expect(imported.status).toBe(200);
    expect((await post('/api/landings/convert/leads', { landing: b.id, leads: direct })).status).toBe(200);
    await db().query(`UPDATE leads SET landing_id = $1, utm_medium = 'moved' WHERE id = $2`, [b.id, direct[1]]);
    await db().query(`UPDATE leads SET url_presale = 'https://exemple.fr/article/isolation' WHERE id = $1`, [direct[1]]);

    expect(await missing()).toEqual([]);
    const names = await db().query(`SELECT name, count(*)::int AS n FROM lead_known_values WHERE landing_id = $1 GROUP BY name ORDER BY name`, [a.id]);
    expect(names.rows).toEqual([
      { name: 'url_presale', n: 1 },
      { name: 'utm_campaign', n: 3 },
      { name: 'utm_medium', n: 2 },
      { name: 'utm_source', n: 3 },
    ]);
  });

  it("answer a 'contains' no value holds with nothing, the same as the leads would, by page and by count", async () => {
    const landing = await createLanding(db());
    const ids = await insertLeads(db(), landing.id, [{}, {}, {}, {}]);
    await db().query(
      `UPDATE leads SET utm_source = (ARRAY['Facebook', 'google'])[id % 2 + 1], utm_campaign = 'Été_' || id,
              url_presale = (ARRAY['https://exemple.fr/article/pompe-a-chaleur', NULL])[id % 2 + 1] WHERE id = ANY($1::bigint[])`,
      [ids],
    );
    for (const [query, total] of [
      ['filter[utm_source]=FACE', 2],
      ['filter[utm_source]=twitter', 0],
      ['filter[utm_campaign]=été', 4],
      ['filter[utm_campaign]=hiver', 0],
      ['filter[utm_medium]=cpc', 0],
      ['filter[url_presale]=POMPE', 2],
      ['filter[url_presale]=isolation', 0],
    ] as const) {
      const page = await get<LeadListResponse>(`/api/landings/data/${landing.id}?${query}&_limit=1`);
      expect(page.total, query).toBe(total);
      expect(page.data.length, query).toBe(Math.min(total, 1));
      expect(await get<LeadCountResponse>(`/api/landings/data/${landing.id}/count?${query}`), query).toEqual({ total });
    }
  });

  it('are tested once, before any lead is read', async () => {
    const landing = await createLanding(db());
    const l = await getLanding(db(), landing.id);
    const params = new Params();
    const where = leadConditions([l], 'new', { contains: { utm_source: 'twitter' }, values: {}, dates: {} }, params);
    const { rows } = await db().query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT count(*) FROM leads l WHERE ${where.join(' AND ')}`, params.values);
    expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/One-Time Filter/);
  });
});
